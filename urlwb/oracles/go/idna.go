package main

import (
	"encoding/json"
	"runtime/debug"

	"golang.org/x/net/idna"
)

// valueAnswer answers a host question (docs/oracle-protocol.md, "Host questions").
type valueAnswer struct {
	ID    json.RawMessage `json:"id"`
	Value string          `json:"value"`
}

func helloIDNA() map[string]any {
	return map[string]any{
		"name": "go-idna",
		// Lookup's options as the package prints them: in v0.62.0
		// "NonTransitional:UseSTD3Rules:CheckHyphens:CheckJoiners" (its String() does not
		// name the Bidi rule, which Lookup checks too, nor VerifyDNSLength, which it does not).
		"parser":    "golang.org/x/net/idna Lookup.ToASCII (" + idna.Lookup.String() + ")",
		"language":  "Go",
		"version":   xnetVersion() + " (Unicode " + idna.UnicodeVersion + " tables, " + goVersion() + ")",
		"family":    "other",
		"kind":      "host",
		"base":      false,
		"questions": []string{"to-ascii"},
	}
}

// answerIDNA answers "to-ascii" with Lookup.ToASCII; its error is the rejection.
func answerIDNA(req *request) any {
	if req.Question != "to-ascii" {
		return notApplicableAnswer{req.ID, "go-idna answers only to-ascii, not " + req.Question}
	}
	ascii, err := idna.Lookup.ToASCII(req.Input)
	if err != nil {
		return errorAnswer{req.ID, err.Error()}
	}
	return valueAnswer{req.ID, ascii}
}

// xnetVersion is the golang.org/x/net module version built in (go.mod pins it).
func xnetVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "golang.org/x/net" {
				return "golang.org/x/net " + m.Version
			}
		}
	}
	return "golang.org/x/net (version unknown)"
}
