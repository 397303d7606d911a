//! Hands the locked versions of the parsers to the binary (`env!("URLWB_VERSION_URL")`...), so
//! that the hello line states the version actually built, read from `Cargo.lock`.

use std::fs;

const CRATES: [(&str, &str); 4] = [
    ("url", "URLWB_VERSION_URL"),
    ("idna", "URLWB_VERSION_IDNA"),
    ("idna_adapter", "URLWB_VERSION_IDNA_ADAPTER"),
    ("icu_properties_data", "URLWB_VERSION_ICU_DATA"),
];

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").expect("Cargo.lock is committed beside Cargo.toml");
    for (name, var) in CRATES {
        println!("cargo:rustc-env={var}={}", locked_version(&lock, name));
    }
}

/// The `version` line of the `[[package]]` named `name` ("?" if not locked).
fn locked_version(lock: &str, name: &str) -> String {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == wanted {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = ")) {
                return v.trim_matches('"').to_string();
            }
        }
    }
    "?".to_string()
}
