//! urlwb-rust speaks the workbench's oracle protocol (`docs/oracle-protocol.md`, "urlwb-oracle/1") for
//! two Rust parsers; its one argument picks which:
//!
//! - `rust-url`: the `url` crate, `Url::parse(input)`, or with a base
//!   `Url::options().base_url(Some(&base)).parse(input)` (kind url, family whatwg);
//! - `rust-idna`: the `idna` crate's `domain_to_ascii` (kind host, question `to-ascii`).
//!
//! It reads one JSON request per line from standard input and writes one JSON answer per line,
//! until standard input ends. Requests are answered in the order they come; answers are flushed
//! whenever no complete request is waiting, so pipelined requests are answered in batches and a
//! lone request at once.

use serde_json::{json, Value};
use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use url::Url;

/// One of the two oracles: its hello line and how it answers a request.
struct Oracle {
    hello: fn() -> Value,
    answer: fn(&Value, &Value) -> Value,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let oracle = match args.get(1).map(String::as_str) {
        Some("rust-url") if args.len() == 2 => Oracle {
            hello: hello_url,
            answer: answer_url,
        },
        Some("rust-idna") if args.len() == 2 => Oracle {
            hello: hello_idna,
            answer: answer_idna,
        },
        _ => {
            eprintln!("usage: urlwb-rust rust-url|rust-idna");
            return ExitCode::from(2);
        }
    };
    match serve(&oracle) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("urlwb-rust: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the hello line, then answers each request line until standard input ends.
fn serve(oracle: &Oracle) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut hello = (oracle.hello)();
    hello["hello"] = json!("urlwb-oracle/1");
    write_line(&mut out, &hello)?;
    let mut line = Vec::new();
    loop {
        // Flush before a read that may block: no complete request is buffered.
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return out.flush();
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let request: Value = serde_json::from_str(&replace_lone_surrogates(&text))
            .map_err(|e| io::Error::other(format!("not a request ({e}): {:.200}", text)))?;
        let id = match request.get("id") {
            Some(id) if !id.is_null() => id.clone(),
            _ => {
                return Err(io::Error::other(format!(
                    "a request without id: {:.200}",
                    text
                )))
            }
        };
        let answer = panic::catch_unwind(AssertUnwindSafe(|| (oracle.answer)(&id, &request)))
            .unwrap_or_else(|p| {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                json!({"id": id, "crash": format!("panic: {what}")})
            });
        write_line(&mut out, &answer)?;
    }
}

fn write_line(out: &mut impl Write, value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Rewrites each JSON escape of a lone surrogate (`\udc80` with no partner) into `\ufffd`.
///
/// The protocol sends strings as the workbench holds them, lone surrogates included, and asks a
/// language whose strings cannot hold one to read it as U+FFFD, as the URL API's USVString
/// conversion does (<https://webidl.spec.whatwg.org/#idl-USVString>). `serde_json` refuses such
/// escapes outright, so they are rewritten before decoding. A high surrogate escape followed at
/// once by a low one is a pair and stays; `\\u` is an escaped backslash, not an escape.
fn replace_lone_surrogates(json: &str) -> Cow<'_, str> {
    let b = json.as_bytes();
    let hex4 = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let unicode_escape = |at: usize| -> Option<u32> {
        (b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u'))
            .then(|| hex4(at + 2))
            .flatten()
    };
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        match unicode_escape(i) {
            Some(0xD800..=0xDBFF) if matches!(unicode_escape(i + 6), Some(0xDC00..=0xDFFF)) => {
                i += 12; // a surrogate pair: one supplementary code point
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str(&json[copied..i]);
                out.push_str("\\ufffd");
                i += 6;
                copied = i;
            }
            Some(_) => i += 6,
            None => i += 2, // a two-character escape (\\, \", \n, ...)
        }
    }
    if copied == 0 {
        return Cow::Borrowed(json);
    }
    out.push_str(&json[copied..]);
    Cow::Owned(out)
}

fn request_str<'a>(request: &'a Value, field: &str) -> Option<&'a str> {
    request.get(field).and_then(Value::as_str)
}

fn hello_url() -> Value {
    json!({
        "name": "rust-url",
        "parser": "url::Url::parse, Url::options().base_url(Some(&base)).parse",
        "language": "Rust",
        "version": concat!("url ", env!("URLWB_VERSION_URL"), " (idna ", env!("URLWB_VERSION_IDNA"),
                           ", idna_adapter ", env!("URLWB_VERSION_IDNA_ADAPTER"),
                           ", icu_properties_data ", env!("URLWB_VERSION_ICU_DATA"), ")"),
        "family": "whatwg",
        "kind": "url",
        "base": true,
    })
}

/// <https://url.spec.whatwg.org/#concept-url-parser> as the `url` crate implements it: the base
/// is parsed first (a base it rejects makes the pair not applicable), then the input against it.
fn answer_url(id: &Value, request: &Value) -> Value {
    let input = request_str(request, "input").unwrap_or_default();
    let base = match request_str(request, "base") {
        None => None,
        Some(base) => match Url::parse(base) {
            Ok(base) => Some(base),
            Err(e) => {
                return json!({"id": id, "not_applicable": format!("the base does not parse: {e}")})
            }
        },
    };
    match Url::options().base_url(base.as_ref()).parse(input) {
        Ok(url) => components(id, &url),
        Err(e) => json!({"id": id, "error": e.to_string()}),
    }
}

/// The protocol's fields from the `url` crate's getters, which follow the Standard's URL record
/// (<https://url.spec.whatwg.org/#concept-url>) but in two places, normalized here:
///
/// - `password()` is `None` for an empty password, where the Standard's password is always a
///   string (`""` by default): sent as `""`;
/// - `host_str()` is `None` for the empty host as well as for a null one (`file:///x`,
///   `sc:///x` have the host `""`): the host is `""` when the URL has an authority
///   (`has_authority()`: the serialization has `//` after the scheme, which the URL serializer
///   writes exactly when the host is non-null).
///
/// The rest needs nothing: `username()` is `""` when there is none, as in the Standard;
/// `host_str()` keeps an IPv6 address's brackets; `port()` is `None` for the scheme's default
/// port, which the Standard never stores; `query()` and `fragment()` tell `""` from absent.
fn components(id: &Value, url: &Url) -> Value {
    let host = url
        .has_authority()
        .then(|| url.host_str().unwrap_or_default());
    json!({
        "id": id,
        "scheme": url.scheme(),
        "username": url.username(),
        "password": url.password().unwrap_or_default(),
        "host": host,
        "port": url.port(),
        "path": url.path(),
        "query": url.query(),
        "fragment": url.fragment(),
        "href": url.as_str(),
    })
}

fn hello_idna() -> Value {
    json!({
        "name": "rust-idna",
        "parser": "idna::domain_to_ascii (UTS #46 ToASCII, nontransitional: UseSTD3ASCIIRules=false, \
                   CheckHyphens=false, CheckBidi=true, CheckJoiners=true, VerifyDnsLength=false)",
        "language": "Rust",
        "version": concat!("idna ", env!("URLWB_VERSION_IDNA"), " (idna_adapter ",
                           env!("URLWB_VERSION_IDNA_ADAPTER"), ", icu_properties_data ",
                           env!("URLWB_VERSION_ICU_DATA"), ")"),
        "family": "other",
        "kind": "host",
        "base": false,
        "questions": ["to-ascii"],
    })
}

/// "to-ascii" with `idna::domain_to_ascii`, the Standard's domain to ASCII with beStrict false
/// (<https://url.spec.whatwg.org/#concept-domain-to-ascii>, its UTS #46 step), without the URL
/// parser's forbidden domain code point check (`AsciiDenyList::EMPTY`).
fn answer_idna(id: &Value, request: &Value) -> Value {
    match request_str(request, "question") {
        Some("to-ascii") => {}
        other => {
            return json!({"id": id, "not_applicable":
                          format!("rust-idna answers only to-ascii, not {}", other.unwrap_or("none"))})
        }
    }
    match idna::domain_to_ascii(request_str(request, "input").unwrap_or_default()) {
        Ok(ascii) => json!({"id": id, "value": ascii}),
        Err(e) => json!({"id": id, "error": format!("{e:?}")}),
    }
}
