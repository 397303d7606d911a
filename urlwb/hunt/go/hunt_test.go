// Package hunt is urlwb hunt's Go harness: net/url under Go's native fuzzer, guided by the
// coverage of net/url itself (go test -fuzz instruments the standard library's packages too).
//
// FuzzNetURL gives each input to url.Parse and reads every component the go-net-url oracle
// reports (urlwb/oracles/go/neturl.go), so that the code the oracle's answer depends on is the
// code being covered. It checks nothing: what the fuzzer keeps (its cache's new entries) is
// judged by the Standard in urlwb hunt, in batches, through the differential. Inputs that are
// not UTF-8 are skipped: the oracle protocol carries text, so the judge could not send them.
//
// TestReach parses every input of the JSON list in $URLWB_HUNT_INPUTS: run with
// -coverpkg=net/url, it measures the statements of net/url a set of inputs reaches.
package hunt

import (
	"encoding/json"
	"net/url"
	"os"
	"testing"
	"unicode/utf8"
)

func parse(s string) {
	u, err := url.Parse(s)
	if err != nil {
		return
	}
	_ = u.String()
	_ = u.Hostname()
	_ = u.Port()
	_ = u.EscapedPath()
	_ = u.EscapedFragment()
	_ = u.Query()
	_ = u.RequestURI()
	if u.User != nil {
		_ = u.User.Username()
		_, _ = u.User.Password()
	}
}

func FuzzNetURL(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			return
		}
		parse(string(data))
	})
}

func TestReach(t *testing.T) {
	path := os.Getenv("URLWB_HUNT_INPUTS")
	if path == "" {
		t.Skip("URLWB_HUNT_INPUTS not set")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	if err := json.Unmarshal(raw, &inputs); err != nil {
		t.Fatal(err)
	}
	for _, s := range inputs {
		parse(s)
	}
}
