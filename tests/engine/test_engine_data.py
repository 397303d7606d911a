"""The engine's data is its own: it imports nothing but the standard library, and
engine/data/public_suffix_list.dat is the list scripts/gen_public_suffix_list.py copied, unchanged,
from the ``publicsuffixlist`` package (the IDNA tables: tests/engine/test_idna_tables.py).

``publicsuffixlist`` is an oracle dependency, not the engine's: the copy is compared with a fresh
generation when the installed package is the release it was made from, and skipped otherwise
(publicsuffixlist is released with each new list, so that is often), saying which list is
installed. The header's SHA-256 of the source file proves the copy unchanged in any case.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.public_suffix import LIST_VERSION

ROOT = Path(__file__).resolve().parents[2]
PSL = ROOT / "engine" / "data" / "public_suffix_list.dat"
GENERATOR = "scripts/gen_public_suffix_list.py"


def test_the_engine_imports_only_the_standard_library():
    code = ("import sys; before = set(sys.modules); import engine; "
            "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout == "['engine']\n"


def split_header(text: str) -> tuple[dict[str, str], str]:
    """The generator's header fields, and the list after the header."""
    header, sep, body = text.partition("//\n")
    assert sep, "no header"
    return dict(re.findall(r"^// ([a-z_0-9]+): (.*)$", header, re.MULTILINE)), body


def test_the_list_is_the_source_unchanged():
    data = PSL.read_bytes()
    fields, body = split_header(data.decode("utf-8"))
    assert fields["generated_by"] == GENERATOR
    assert re.fullmatch(r"publicsuffixlist \S+ \(PyPI\), publicsuffixlist/public_suffix_list\.dat", fields["source"])
    assert hashlib.sha256(body.encode("utf-8")).hexdigest() == fields["source_sha256"]
    assert re.search(r"^// VERSION: (\S+)$", body, re.MULTILINE)[1] == fields["list_version"] == LIST_VERSION
    for marker in ("BEGIN ICANN DOMAINS", "END ICANN DOMAINS", "BEGIN PRIVATE DOMAINS", "END PRIVATE DOMAINS"):
        assert f"// ==={marker}===\n" in body


def test_the_list_is_what_the_script_makes_now(monkeypatch):
    pytest.importorskip("publicsuffixlist")
    from importlib import metadata

    fields, _ = split_header(PSL.read_text(encoding="utf-8"))
    installed = metadata.version("publicsuffixlist")
    if fields["source"].split()[1] != installed:
        pytest.skip(f"publicsuffixlist {installed} is installed, the list was copied from "
                    f"{fields['source'].split()[1]} (list {LIST_VERSION}): to take its list, run {GENERATOR}")
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))  # for its ``import datagen``
    spec = importlib.util.spec_from_file_location("gen_public_suffix_list", ROOT / GENERATOR)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.generate() == {PSL.name: PSL.read_text(encoding="utf-8")}


def test_a_list_without_version_is_unknown(tmp_path, monkeypatch):
    ps = importlib.import_module("engine.public_suffix")  # (``engine.public_suffix`` is the function)
    (tmp_path / "list.dat").write_text("// no version line here\ncom\n", encoding="utf-8")
    monkeypatch.setattr(ps, "_LIST", tmp_path / "list.dat")
    assert ps._list_version() == "unknown"
