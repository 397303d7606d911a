#!/bin/bash -eu
# Build every fuzzers/fuzz_*.py the OSS-Fuzz way (https://google.github.io/oss-fuzz/getting-started/new-project-guide/python-lang/):
# compile_python_fuzzer (PyInstaller) per target, and beside each binary in $OUT its
# <name>_seed_corpus.zip (from corpus/<target>/seed/), <name>.dict and <name>.options.
# Runs in $SRC/url-workbench (the Dockerfile's WORKDIR) or in the folder given as $PROJECT_DIR.
cd "${PROJECT_DIR:-$SRC/url-workbench}"

pip3 install .

for fuzzer in fuzzers/fuzz_*.py; do
  name=$(basename "$fuzzer" .py)
  target=${name#fuzz_}
  # The engine reads its tables from engine/data; publicsuffixlist ships its list as data.
  compile_python_fuzzer "$fuzzer" \
    --add-data "engine/data:engine/data" \
    --collect-data publicsuffixlist
  for extra in "fuzzers/$name.dict" "fuzzers/$name.options"; do
    if [ -f "$extra" ]; then cp "$extra" "$OUT/"; fi
  done
  if [ -d "corpus/$target/seed" ] && [ -n "$(ls -A "corpus/$target/seed")" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    (cd "corpus/$target/seed" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*)
  fi
done
