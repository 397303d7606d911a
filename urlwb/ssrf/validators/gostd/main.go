// Command urlwb-go-validator is the common Go SSRF check behind the oracle protocol, kind
// "validator" (docs/oracle-protocol.md, "Validators"): url.Parse, then net.ParseIP of
// u.Hostname(); an address is denied when IsPrivate, IsLoopback, IsLinkLocalUnicast,
// IsLinkLocalMulticast or IsUnspecified; a host that is not an address (a name) is allowed, as
// the shape does before its DNS step; url.Parse's error is "error".
package main

import (
	"bufio"
	"encoding/json"
	"net"
	"net/url"
	"os"
	"runtime"
)

type request struct {
	ID    int64  `json:"id"`
	Input string `json:"input"`
}

func judge(input string) map[string]any {
	u, err := url.Parse(input)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil {
		return map[string]any{"allow": true}
	}
	bad := ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified()
	return map[string]any{"allow": !bad}
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	_ = enc.Encode(map[string]any{"hello": "urlwb-oracle/1", "name": "go-parseip", "kind": "validator",
		"validator": "url.Parse + net.ParseIP(u.Hostname()) + IsPrivate/IsLoopback/IsLinkLocal*/IsUnspecified",
		"parser":    "net/url, net", "language": "Go", "version": runtime.Version(), "family": "other"})
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			continue
		}
		answer := judge(req.Input)
		answer["id"] = req.ID
		_ = enc.Encode(answer)
		out.Flush()
	}
	out.Flush()
}
