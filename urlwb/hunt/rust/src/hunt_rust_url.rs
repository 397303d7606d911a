//! `url::Url::parse` on each input that is UTF-8 (the oracle protocol carries text), every
//! getter the rust-url oracle reports read (urlwb/oracles/rust/src/main.rs). Nothing is checked:
//! what libFuzzer keeps is judged by the Standard in urlwb hunt, in batches.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(url) = url::Url::parse(s) {
            let _ = url.has_authority();
            let _ = url.host_str();
            let _ = (url.scheme(), url.username(), url.password(), url.port());
            let _ = (url.path(), url.query(), url.fragment(), url.as_str());
        }
    }
});
