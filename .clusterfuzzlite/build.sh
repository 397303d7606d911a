#!/bin/bash -eu
# Build every fuzzers/fuzz_*.py the OSS-Fuzz way (https://google.github.io/oss-fuzz/getting-started/new-project-guide/python-lang/):
# compile_python_fuzzer (PyInstaller) per target, and beside each binary in $OUT its
# <name>_seed_corpus.zip (from corpus/<target>/seed/ and distilled/), <name>.dict and <name>.options.
# Runs in $SRC/url-workbench (the Dockerfile's WORKDIR) or in the folder given as $PROJECT_DIR.
cd "${PROJECT_DIR:-$SRC/url-workbench}"

# With the oracles extra: the targets check the engine against ada_url, idna and
# publicsuffixlist (properties/independent.py); a peer that cannot be imported is one line on
# stderr as a target starts, and its checks are off. The workbench extra: what urlwb's modules
# import. The targets import the checkout's names (engine, properties, urlwb), which an installed
# wheel keeps under urlwb (urlwb._engine: setup.py), so the project itself comes from the folder.
pip3 install ".[workbench,oracles]"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"

# URLWB_FUZZERS picks some targets (the tests build one); by default every fuzzers/fuzz_*.py.
for fuzzer in ${URLWB_FUZZERS:-fuzzers/fuzz_*.py}; do
  name=$(basename "$fuzzer" .py)
  target=${name#fuzz_}
  # The engine reads its tables (encodings, UTS #46, the public suffix list) from engine/data.
  # The reference encoder (properties/reference_encoding.py) reads the vendored Encoding
  # Standard indexes from tests/data/encoding.
  # The in-process oracles are imported by name (urlwb.oracles.REGISTRY, importlib), which
  # PyInstaller's analysis cannot see: named here (fuzz_differential failed without them:
  # "engine skipped: not installed (No module named 'urlwb.oracles.whatwg')"), nor ada_url's
  # cffi backend (imported by its compiled module); publicsuffixlist's data file is read by
  # properties/independent.py (fuzz_public_suffix and fuzz_properties exited without it).
  # fuzz_properties replays the property modules by name (properties/replay.py PROPERTY_MODULES).
  hidden=()
  if [ "$name" = fuzz_properties ]; then
    for module in test_hosts test_percent test_urlencoded test_urls test_independent; do
      hidden+=(--hidden-import "properties.$module")
    done
  fi
  compile_python_fuzzer "$fuzzer" "${hidden[@]}" \
    --hidden-import urlwb.oracles.whatwg --hidden-import urlwb.oracles.other --hidden-import _cffi_backend \
    --collect-data publicsuffixlist \
    --add-data "engine/data:engine/data" \
    --add-data "tests/data/encoding:tests/data/encoding"
  for extra in "fuzzers/$name.dict" "fuzzers/$name.options"; do
    if [ -f "$extra" ]; then cp "$extra" "$OUT/"; fi
  done
  # The committed corpus: the seeds and what the fuzzers distilled (urlwb merge).
  rm -f "$OUT/${name}_seed_corpus.zip"
  for folder in "corpus/$target/seed" "corpus/$target/distilled"; do
    if [ -d "$folder" ] && [ -n "$(ls -A "$folder")" ]; then
      (cd "$folder" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*)
    fi
  done
done
