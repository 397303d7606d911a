//! `url::Url::parse` on each input that is UTF-8 (the oracle protocol carries text), every
//! getter the rust-url oracle reports read (urlwb/oracles/rust/src/main.rs). Nothing is checked:
//! what libFuzzer keeps is judged by the Standard in urlwb hunt, in batches.
//!
//! A panic of the parser is caught, as the oracle catches it (its answer is a crash record, a
//! finding of the judge's), and the fuzzer goes on: libfuzzer-sys's own panic hook, which aborts
//! the process, is replaced once by a silent one. Otherwise an old release that panics on a
//! common shape (url 2.1.1 on `x:/.//`) would stop the fuzzer every few thousand executions.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::Once;

static QUIET: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = std::panic::catch_unwind(|| {
            if let Ok(url) = url::Url::parse(s) {
                let _ = url.has_authority();
                let _ = url.host_str();
                let _ = (url.scheme(), url.username(), url.password(), url.port());
                let _ = (url.path(), url.query(), url.fragment(), url.as_str());
            }
        });
    }
});
