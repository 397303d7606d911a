"""engine/data/uts46_mapping.txt and engine/data/joining_types.txt: what
scripts/gen_idna_tables.py makes from its source, and tables the engine can rely on.

The source, the ``idna`` package, is not a dependency of the engine (the host oracle and the
generator use it), so here it may be missing or of another version. The files are compared with
a fresh generation whenever the installed ``idna`` has the Unicode version they record (the
whole files when it is the very release they were made from); otherwise that comparison is
skipped, saying why. Every other test reads the files alone, parsing them line by line, apart
from the engine's loader.
"""

from __future__ import annotations

import bisect
import importlib.util
import re
import unicodedata
from pathlib import Path

import pytest

import engine.idna

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "engine" / "data"
GENERATOR = "scripts/gen_idna_tables.py"


def read(filename: str) -> tuple[dict[str, str], list[str]]:
    """A generated file's header fields (``# key: value``) and its data lines."""
    fields, rows = {}, []
    for line in (DATA / filename).read_text(encoding="utf-8").split("\n")[:-1]:
        if line.startswith("#"):
            match = re.fullmatch(r"# ([a-z_0-9]+): (.*)", line)
            if match:
                fields[match[1]] = match[2]
        else:
            rows.append(line)
    return fields, rows


MAPPING_FIELDS, MAPPING_ROWS = read("uts46_mapping.txt")
JOINING_FIELDS, JOINING_ROWS = read("joining_types.txt")
MAPPING = [(int(start, 16), status, mapping) for start, status, mapping in (r.split("\t") for r in MAPPING_ROWS)]
STARTS = [start for start, _, _ in MAPPING]
JOINING = [(int(first, 16), int(last, 16), joining_type)
           for span, joining_type in (r.split("\t") for r in JOINING_ROWS)
           for first, last in [span.split("..")]]


def test_headers_name_the_generator_and_the_source():
    for fields in (MAPPING_FIELDS, JOINING_FIELDS):
        assert fields["generated_by"] == GENERATOR
        assert re.fullmatch(r"idna \d+\.\d+(\.\d+)? \(PyPI\), idna/\w+\.py.*", fields["source"])
        assert re.fullmatch(r"[0-9a-f]{64}", fields["source_sha256"])
        assert re.fullmatch(r"\d+\.\d+\.\d+", fields["unicode_version"])
    assert MAPPING_FIELDS["unicode_version"] == JOINING_FIELDS["unicode_version"] == engine.idna.UTS46_VERSION


def test_mapping_table_covers_every_code_point_once():
    assert STARTS[:256] == list(range(256))  # the engine indexes these directly
    assert all(a < b for a, b in zip(STARTS, STARTS[1:])) and STARTS[-1] <= 0x10FFFF


def status_and_mapping(cp: int) -> tuple[str, str]:
    """The file's row for ``cp``: the last range starting at or before it."""
    return MAPPING[bisect.bisect_right(STARTS, cp) - 1][1:]


def test_mapping_table_rows():
    """Statuses are UTS #46's; a mapping is given for M (never empty) and D (U+200C and U+200D
    map to nothing, for transitional processing), for no other status; what a code
    point maps to is itself valid or deviation, so mapping twice changes nothing (engine.idna
    relies on it: a label out of the mapping step is not checked for step 6 of the Validity
    Criteria)."""
    for start, status, mapping in MAPPING:
        assert status in "VMDIX", hex(start)
        if status not in "MD":
            assert not mapping, hex(start)
        if status == "M":
            assert mapping, hex(start)
            assert all(status_and_mapping(ord(c))[0] in "VD" for c in mapping), hex(start)


def test_engine_maps_as_the_file_says():
    """``_map_code_point`` at the first and last code point of every range."""
    ends = [start - 1 for start in STARTS[1:]] + [0x10FFFF]
    expected = {"V": lambda c, m: c, "D": lambda c, m: c, "M": lambda c, m: m,
                "I": lambda c, m: "", "X": lambda c, m: None}
    for (start, status, mapping), end in zip(MAPPING, ends):
        for cp in {start, end}:
            assert engine.idna._map_code_point(chr(cp)) == expected[status](chr(cp), mapping), hex(cp)


def test_joining_types():
    """Sorted, disjoint ranges of C, D, L, R, T; the engine's lookup answers as the file says at
    each range's ends and just outside them."""
    assert JOINING and all(t in "CDLRT" for _, _, t in JOINING)
    assert all(first <= last < next_first for (first, last, _), (next_first, _, _) in zip(JOINING, JOINING[1:]))
    covered = {}
    for first, last, joining_type in JOINING:
        covered[first] = covered[last] = joining_type
    for first, last, joining_type in JOINING:
        for cp in (first - 1, first, last, last + 1):
            assert engine.idna.joining_type(cp) == covered.get(cp), hex(cp)
    assert engine.idna.joining_type(0x0628) == "D"  # ARABIC LETTER BEH
    assert engine.idna.joining_type(0x0041) is None


def test_assigned_after_unicodedata_is_idnas_remap_on_unassigned_code_points():
    """The engine's Unicode-version predicate, read from its own table, answers for every code
    point as ``idna.uts46_remap`` does (the test the ``idna`` package's data allows: the same
    Unicode version as the table); and it names code points, which it must for the filter to
    be of use (Python 3.11's unicodedata is Unicode 14)."""
    idna = pytest.importorskip("idna")
    if idna.idnadata.__version__ != engine.idna.UTS46_VERSION:
        pytest.skip(f"idna {idna.__version__} has Unicode {idna.idnadata.__version__}, "
                    f"the table {engine.idna.UTS46_VERSION}")
    def by_idna(c: str) -> bool:
        try:
            idna.uts46_remap(c, std3_rules=False, transitional=False)
        except idna.IDNAError:
            return False
        return True

    found = 0
    for cp in range(0x110000):
        c = chr(cp)
        if unicodedata.category(c) == "Cn":
            assert engine.idna.assigned_after_unicodedata(c) == by_idna(c), hex(cp)
            found += by_idna(c)
        else:
            assert not engine.idna.assigned_after_unicodedata(c), hex(cp)
    assert found > 0


def load_generator(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))  # for its ``import datagen``
    spec = importlib.util.spec_from_file_location("gen_idna_tables", ROOT / GENERATOR)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def test_generated_files_are_what_the_script_makes_now(monkeypatch):
    idna = pytest.importorskip("idna")
    recorded = MAPPING_FIELDS["unicode_version"]
    if idna.unicode_version != recorded:
        pytest.skip(f"idna {idna.__version__} has Unicode {idna.unicode_version}, the tables Unicode "
                    f"{recorded}: to move them, run {GENERATOR}")
    for filename, content in load_generator(monkeypatch).generate().items():
        on_disk = (DATA / filename).read_text(encoding="utf-8")
        # The data lines, whatever the idna release of this Unicode version...
        assert [line for line in content.split("\n") if not line.startswith("#")] == \
            [line for line in on_disk.split("\n") if not line.startswith("#")], f"{filename}: run {GENERATOR}"
        # ... and the whole file when it is the release the file was made from.
        if f"# source: idna {idna.__version__} " in on_disk:
            assert content == on_disk, f"{filename}: run {GENERATOR}"


@pytest.mark.parametrize("filename, damage, why", [
    # An editor strips the trailing tabs: the fields are misaligned.
    ("uts46_mapping.txt", lambda text: text.replace("\t\n", "\n"), "three fields a line|statuses"),
    ("uts46_mapping.txt", lambda text: text.replace("\n0000C0\t", "\n00C0\t"), "six hex digits"),
    ("uts46_mapping.txt", lambda text: text.replace("\n0000C0\t", "\n0000CG\t"), "six hex digits"),
    ("uts46_mapping.txt", lambda text: text.replace("\n0000C0\tM", "\n0000C0\tm"), "statuses"),
    ("uts46_mapping.txt", lambda text: text.replace("\n0000C1\tM\tá\n", "\n"), r"below U\+0100"),
    ("joining_types.txt", lambda text: text.replace("\t", " "), "first..last, type, a line"),
    ("joining_types.txt", lambda text: text.replace("\n000300..", "\n0300.."), "six hex digits"),
])
def test_a_damaged_table_stops_the_import(tmp_path, monkeypatch, filename, damage, why):
    text = (DATA / filename).read_text(encoding="utf-8")
    damaged = damage(text)
    assert damaged != text
    (tmp_path / filename).write_text(damaged, encoding="utf-8")
    monkeypatch.setattr(engine.idna, "_DATA", tmp_path)
    load = {"uts46_mapping.txt": engine.idna._load_mapping_table, "joining_types.txt": engine.idna._load_joining_types}
    with pytest.raises(ImportError, match=f"{filename} is not as {GENERATOR} writes it.*({why})"):
        load[filename]()
