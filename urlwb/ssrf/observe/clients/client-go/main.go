// Go's net/http behind urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py): a hello
// line {"client":"go-net-http","version"}; then for each line on stdin (a JSON string: the URL)
// one JSON line: {"ok":true,"status"} or {"ok":false,"error":TYPE,"message"}.
// http.Client as built by default (its CheckRedirect: at most 10 redirects; the default
// transport's dialer and resolver, the pure-Go one unless cgo is forced), but no proxy from the
// environment and a 3 s timeout.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"time"
)

type answer struct {
	Ok      bool   `json:"ok"`
	Status  int    `json:"status,omitempty"`
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
	Cause   string `json:"cause,omitempty"`
}

func main() {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	client := &http.Client{Transport: tr, Timeout: 3 * time.Second}
	out := json.NewEncoder(os.Stdout)
	out.Encode(map[string]string{"client": "go-net-http", "version": runtime.Version()})
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		var raw string
		if json.Unmarshal(line, &raw) != nil {
			out.Encode(answer{Error: "bad-request", Message: "not a JSON string"})
			continue
		}
		resp, ferr := client.Get(raw)
		if ferr != nil {
			a := answer{Error: fmt.Sprintf("%T", ferr), Message: ferr.Error()}
			var ue *url.Error
			if errors.As(ferr, &ue) && ue.Err != nil {
				a.Cause = fmt.Sprintf("%T", ue.Err)
			}
			out.Encode(a)
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out.Encode(answer{Ok: true, Status: resp.StatusCode})
	}
}
