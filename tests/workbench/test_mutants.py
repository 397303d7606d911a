"""``urlwb mutants``: the kill suite kills a planted mutant, hangs included, and passes the engine
as it is; an equivalent mutant needs a reason; the sample is seeded and spread over the modules.

The mutation run itself is not part of ``make test`` (it takes minutes): see README.
"""

from __future__ import annotations

import pathlib
import shutil
import types

import pytest

from urlwb.mutation import mutants

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _engine_copy(tmp_path: pathlib.Path, module: str = "", old: str = "", new: str = "") -> pathlib.Path:
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    if module:
        path = tmp_path / "engine" / module
        source = path.read_text(encoding="utf-8")
        assert source.count(old) == 1, f"the planted change's text is not once in {module}"
        path.write_text(source.replace(old, new), encoding="utf-8")
    return tmp_path


@pytest.mark.slow   # 44 s, the whole kill suite: make test's budget (8 min on two cores) keeps the
# planted mutant's check below, and `urlwb mutants` runs this baseline itself before it mutates
def test_the_kill_suite_passes_the_engine_as_it_is(tmp_path):
    known = tmp_path / "differences.json"
    verdict, passed = mutants.run_suite(_engine_copy(tmp_path), {}, default_timeout=300,
                                        extra_args=["--max-examples", "3", "--record-differences", str(known)])
    assert not verdict.killed, verdict
    assert {"wpt:urltestdata", "corpus:url", "differential:url"} <= set(passed)
    assert any(name.startswith("property:") for name in passed)


def test_the_kill_suite_kills_a_planted_mutant_and_names_the_check(tmp_path):
    # The IPv4 serializer's third number masked with 127 instead of 255: a one-token bug.
    root = _engine_copy(tmp_path, "host.py", "{(address >> 8) & 255}", "{(address >> 8) & 127}")
    verdict, _ = mutants.run_suite(root, {}, default_timeout=300, extra_args=["--max-examples", "3"])
    assert verdict.killed and verdict.killer == "wpt:urltestdata", verdict
    assert "AssertionError" in verdict.detail


def test_a_mutant_that_hangs_is_killed_by_a_timeout(tmp_path):
    root = _engine_copy(tmp_path, "percent_encoding.py", '    """https://url.spec.whatwg.org/#percent-decode',
                        '    while True:\n        pass\n    """https://url.spec.whatwg.org/#percent-decode')
    verdict, _ = mutants.run_suite(root, {}, default_timeout=3, extra_args=["--only", "corpus:percent"])
    assert verdict.killed and verdict.killer == "timeout" and verdict.check == "corpus:percent", verdict


def test_a_mutant_that_breaks_the_import_is_killed_by_import(tmp_path):
    root = _engine_copy(tmp_path, "infra.py", 'ASCII_DIGITS = frozenset(', 'ASCII_DIGITS = frozenset(1 / 0, ')
    verdict, _ = mutants.run_suite(root, {}, default_timeout=60)
    assert verdict.killed and verdict.killer == "import" and "ZeroDivisionError" in verdict.detail


ENTRY = """[[mutant]]
module = "engine/infra.py"
function = "<module>"
operator = "ReplaceBinaryOperator_BitOr_BitAnd"
original = "x = a | b"
mutated = "x = a & b"
"""


def test_an_equivalent_mutant_needs_a_reason(tmp_path):
    path = tmp_path / "equivalent.toml"
    path.write_text(ENTRY, encoding="utf-8")
    with pytest.raises(ValueError, match="lacks reason"):
        mutants.load_equivalents(path)
    path.write_text(ENTRY + 'reason = "  "\n', encoding="utf-8")
    with pytest.raises(ValueError, match="empty reason"):
        mutants.load_equivalents(path)
    path.write_text(ENTRY + 'reason = "x is never read"\n', encoding="utf-8")
    key = mutants.Key("engine/infra.py", "<module>", "ReplaceBinaryOperator_BitOr_BitAnd",
                      "x = a | b", "x = a & b")
    assert mutants.load_equivalents(path) == {key: "x is never read"}


def test_a_reviewed_survivor_needs_a_reason_too(tmp_path):
    path = tmp_path / "survivors.toml"
    path.write_text(ENTRY + 'reason = ""\n', encoding="utf-8")
    with pytest.raises(ValueError, match="say why it survives"):
        mutants.load_survivors(path)


def test_the_committed_lists_load_and_do_not_overlap():
    equivalents, survivors = mutants.load_equivalents(), mutants.load_survivors()
    for reason in [*equivalents.values(), *survivors.values()]:
        assert reason.strip()
    assert not set(equivalents) & set(survivors)


def test_every_reviewed_mutant_names_a_line_of_its_function():
    """An entry matches a mutant by its module, function and line, so code that moves (to another
    module or function) or goes must take its entries with it: each entry's original line is a
    line of its module, inside the function it names. (Whether cosmic-ray makes that very mutant
    is the mutation run's to say.)"""
    stale = []
    for key in [*mutants.load_equivalents(), *mutants.load_survivors()]:
        path = ROOT / key.module
        source = path.read_text(encoding="utf-8") if path.is_file() else ""
        spans = mutants.qualified_names(source) if source else []
        first = key.original.splitlines()[0]
        where = {mutants.function_at(spans, n) for n, line in enumerate(source.splitlines(), 1)
                 if line.strip() == first}
        if key.function not in where:
            stale.append(f"{key.module} {key.function}: {first!r} is in {sorted(where) or 'none'}")
    assert not stale, stale


def test_a_mutant_is_known_by_its_function_and_the_lines_it_changes():
    source = "class A:\n    @property\n    def f(self):\n        return 1 + 2\n\nx = 3\n"
    spans = mutants.qualified_names(source)
    assert mutants.function_at(spans, 2) == "A.f" and mutants.function_at(spans, 4) == "A.f"
    assert mutants.function_at(spans, 1) == "A" and mutants.function_at(spans, 6) == "<module>"
    diff = mutants.make_diff("engine/m.py", source, source.replace("1 + 2", "1 - 2"))
    assert mutants.changed_lines(diff) == ("return 1 + 2", "return 1 - 2")


def test_annotations_are_found_only_where_their_evaluation_is_postponed():
    body = "def f(a: int | None) -> str | None:\n    return a | 1\n"
    spans = mutants.annotation_spans("from __future__ import annotations\n" + body)
    spec = types.SimpleNamespace
    assert mutants.in_annotation(spec(start_pos=(2, 13)), spans)      # int | None
    assert mutants.in_annotation(spec(start_pos=(2, 32)), spans)      # -> str | None
    assert not mutants.in_annotation(spec(start_pos=(3, 13)), spans)  # a | 1
    assert mutants.annotation_spans(body) == []


def test_the_sample_is_seeded_and_spread_over_every_module():
    items = [types.SimpleNamespace(job_id=f"{m}{i}", mutations=[types.SimpleNamespace(
        module_path=m, operator_name="op", occurrence=i)]) for m, n in
        (("a.py", 900), ("b.py", 95), ("c.py", 5)) for i in range(n)]
    first = mutants.sample(items, 100, seed=1)
    assert [i.job_id for i in first] == [i.job_id for i in mutants.sample(items[::-1], 100, seed=1)]
    assert [i.job_id for i in first] != [i.job_id for i in mutants.sample(items, 100, seed=2)]
    per_module = {m: sum(1 for i in first if i.mutations[0].module_path == m) for m in ("a.py", "b.py", "c.py")}
    assert per_module == {"a.py": 90, "b.py": 9, "c.py": 1}
