package main

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// urlAnswer is an accepted URL (docs/oracle-protocol.md, "URL requests and answers"); a nil field is null,
// the protocol's "absent". Raw holds Go's own fields as they are, for debugging.
type urlAnswer struct {
	ID       json.RawMessage `json:"id"`
	Scheme   *string         `json:"scheme"`
	Username *string         `json:"username"`
	Password *string         `json:"password"`
	Host     *string         `json:"host"`
	Port     any             `json:"port"`
	Path     *string         `json:"path"`
	Query    *string         `json:"query"`
	Fragment *string         `json:"fragment"`
	Href     *string         `json:"href"`
	Raw      rawURL          `json:"raw"`
}

// rawURL is net/url's URL as it stores it (Path and Fragment decoded, Host with its port).
type rawURL struct {
	Opaque      string `json:"Opaque"`
	Host        string `json:"Host"`
	Path        string `json:"Path"`
	RawPath     string `json:"RawPath"`
	RawFragment string `json:"RawFragment"`
	ForceQuery  bool   `json:"ForceQuery"`
	OmitHost    bool   `json:"OmitHost"`
}

func helloNetURL() map[string]any {
	return map[string]any{
		"name":     "go-net-url",
		"parser":   "net/url (url.Parse, URL.ResolveReference)",
		"language": "Go",
		"version":  goVersion(),
		"family":   "other",
		"kind":     "url",
		"base":     true,
	}
}

// answerNetURL parses req.Input with url.Parse; with a base, parses the base too and resolves
// the input against it with ResolveReference (RFC 3986, section 5.2).
func answerNetURL(req *request) any {
	ref, err := url.Parse(req.Input)
	if req.Base != nil {
		base, berr := url.Parse(*req.Base)
		if berr != nil {
			return notApplicableAnswer{req.ID, "the base does not parse: " + berr.Error()}
		}
		if err == nil {
			ref = base.ResolveReference(ref)
		}
	}
	if err != nil {
		return errorAnswer{req.ID, err.Error()}
	}
	return components(req.ID, ref)
}

// components maps a URL onto the protocol's fields. Where net/url cannot say what the protocol
// asks, it is decided here, and nowhere else:
//
//   - scheme: Go's Scheme, lower-cased by Parse; "" (a relative reference) is null.
//   - username, password: Userinfo.Username() and Password(), which net/url has percent-decoded
//     (Go keeps no encoded form; User.String() re-encodes in its own way). The password is null
//     when Password() says it is not set ("user@" as opposed to "user:@").
//   - host: net/url has no null host, only "". The host is present (possibly "") exactly when
//     String() writes "//" before the path: a Host or a User, or, for a URL with a scheme and a
//     hierarchical path, a non-empty path that Parse did not mark OmitHost ("http:/x", no
//     authority). So "file:///x" has the host "" and "http:/x" none; "http://" (no host, no
//     path) serializes as "http:" and is reported without a host, as Go reads it.
//   - host: Hostname() strips the brackets of an IPv6 literal; they are put back when Host
//     starts with "[".
//   - port: Port(), the digits as written; none is null. A port too large for 64 bits is sent
//     as the string Go keeps (a JSON number of many thousand digits is more than a reader needs).
//   - path: EscapedPath(), the path as String() writes it: RawPath when it is a valid encoding of
//     Path, else Path encoded by Go. The decoded Path (in raw) is what Go's HTTP handlers route
//     on, but it merges "%2F" with "/" and "%25" with "%", and the protocol's path, like the
//     Standard's, is the encoded one. An opaque URL ("mailto:x") reports Opaque as its path.
//   - query: RawQuery; present but empty when ForceQuery ("?" at the end), else null if "".
//   - fragment: EscapedFragment(); Go stores no empty fragment, so "#" at the end is null.
//   - href: String().
func components(id json.RawMessage, u *url.URL) urlAnswer {
	a := urlAnswer{ID: id, Href: ptr(u.String())}
	a.Raw = rawURL{u.Opaque, u.Host, u.Path, u.RawPath, u.RawFragment, u.ForceQuery, u.OmitHost}
	if u.Scheme != "" {
		a.Scheme = ptr(u.Scheme)
	}
	if u.User != nil {
		a.Username = ptr(u.User.Username())
		if p, set := u.User.Password(); set {
			a.Password = ptr(p)
		}
	}
	if u.Opaque != "" {
		a.Path = ptr(u.Opaque)
	} else {
		a.Path = ptr(u.EscapedPath())
		if u.Host != "" || u.User != nil || (u.Scheme != "" && !u.OmitHost && u.Path != "") {
			host := u.Hostname()
			if strings.HasPrefix(u.Host, "[") {
				host = "[" + host + "]" // Hostname() strips an IPv6 literal's brackets
			}
			a.Host = ptr(host)
		}
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.ParseUint(p, 10, 64); err == nil {
			a.Port = n
		} else {
			a.Port = p
		}
	}
	if u.ForceQuery || u.RawQuery != "" {
		a.Query = ptr(u.RawQuery)
	}
	if f := u.EscapedFragment(); f != "" {
		a.Fragment = ptr(f)
	}
	return a
}

func ptr(s string) *string {
	return &s
}
