// Command urlwb-go speaks the workbench's oracle protocol (docs/oracle-protocol.md, "urlwb-oracle/1")
// for two Go parsers; its one argument picks which:
//
//	urlwb-go go-net-url   net/url: url.Parse, and base.ResolveReference(ref) for a base (kind url)
//	urlwb-go go-idna      golang.org/x/net/idna: Lookup.ToASCII (kind host, question to-ascii)
//
// It reads one JSON request per line from standard input and writes one JSON answer per line,
// until standard input ends. Requests are answered in the order they come; answers are flushed
// whenever no complete request is waiting, so pipelined requests are answered in batches and a
// lone request at once.
//
// Strings: encoding/json turns a lone surrogate escape (\udc80) in a request into U+FFFD, as the
// protocol asks of a language whose strings cannot hold one, and replaces bytes that are not
// UTF-8 in an answer (net/url decodes %ff into the byte 0xff) with U+FFFD.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
)

// request is one line from the supervisor: a URL request ({"id", "input", "base"}) or a host
// question ({"id", "question", "input"}). The id is echoed back as written.
type request struct {
	ID       json.RawMessage `json:"id"`
	Input    string          `json:"input"`
	Base     *string         `json:"base"`
	Question string          `json:"question"`
}

// oracle answers one request with a value that encodes to one answer line (id included).
type oracle struct {
	hello  map[string]any
	answer func(req *request) any
}

// The answers that are not components: the parser rejected the input ("error"), the adapter
// cannot put it to the parser ("not_applicable"), or the parser panicked ("crash").
type errorAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error string          `json:"error"`
}

type notApplicableAnswer struct {
	ID            json.RawMessage `json:"id"`
	NotApplicable string          `json:"not_applicable"`
}

type crashAnswer struct {
	ID    json.RawMessage `json:"id"`
	Crash string          `json:"crash"`
}

var oracles = map[string]oracle{
	"go-net-url": {helloNetURL(), answerNetURL},
	"go-idna":    {helloIDNA(), answerIDNA},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: urlwb-go go-net-url|go-idna")
		os.Exit(2)
	}
	o, ok := oracles[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "urlwb-go: no oracle %q (go-net-url, go-idna)\n", os.Args[1])
		os.Exit(2)
	}
	if err := serve(o, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "urlwb-go:", err)
		os.Exit(1)
	}
}

// serve writes the hello line, then answers each request line until in ends.
func serve(o oracle, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriterSize(out, 1<<16)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	o.hello["hello"] = "urlwb-oracle/1"
	if err := enc.Encode(o.hello); err != nil {
		return err
	}
	for {
		if !lineWaiting(r) {
			if err := w.Flush(); err != nil {
				return err
			}
		}
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req request
			if jerr := json.Unmarshal(line, &req); jerr != nil || req.ID == nil {
				return fmt.Errorf("not a request (%v): %.200q", jerr, line)
			}
			if eerr := enc.Encode(safely(o.answer, &req)); eerr != nil {
				return eerr
			}
		}
		if err == io.EOF {
			return w.Flush()
		} else if err != nil {
			return err
		}
	}
}

// lineWaiting reports whether a whole request line is already buffered (so reading it cannot
// block, and the answers written so far can wait for the batch's flush).
func lineWaiting(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// safely calls answer, turning a panic of the parser into a "crash" answer for this input.
func safely(answer func(*request) any, req *request) (a any) {
	defer func() {
		if p := recover(); p != nil {
			a = crashAnswer{req.ID, fmt.Sprintf("panic: %v", p)}
		}
	}()
	return answer(req)
}

// goVersion is the toolchain the binary was built with, which is net/url's version.
func goVersion() string {
	return runtime.Version()
}
