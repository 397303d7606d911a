"""ReDoS found from the regex (issue 36): a planted npm package whose data: URL regex is
normalize-url 4.5.0's, served from a local registry (``local_registries.py``), asked with
``urlwb growth --parsers NAME@VERSION --regexes`` and no shape typed.

The package trims its input first (as normalize-url does), so recheck's attack as given (a run of
',' then a newline) is trimmed into a match; its shape with 'x' after the suffix is what the
package's API meets. What each check kills:
- the finding on the regex's shape, with the regex and its source line: ``--regexes`` reading no
  regex (``regexes.attacks`` returning none: no finding, the test fails);
- the trim-proof variant flagged: the shapes without the 'x' after the failing suffix (the
  attack as given is linear through this package's API: no finding);
- the four lengths in the record: ``_four_lengths`` removed;
- a PyPI release's regexes from its wheel's RECORD: ``_wheel_files`` matched the dist-info folder
  by ``rsplit('-')`` of its whole name ('1.0.dist-info' holds a '-': no file was read, the test
  failed; fixed). regexploit's attack is checked where it is installed (it passed with it on
  the path; the shared venv here does not have it yet).
"""

from __future__ import annotations

import importlib.util
import json
import shutil

import pytest

from local_registries import npm_served
from urlwb import cli
from urlwb.errors import UsageError
from urlwb.growth import regexes
from urlwb.oracles import manifests

from test_installs import ADAPTERS, config, project, shared_cache  # noqa: F401 (fixtures)

needs_checker = pytest.mark.skipif(
    shutil.which("node") is None or not (regexes.CHECKER / "node_modules" / "recheck").is_dir(),
    reason="needs node and the ReDoS checker (make oracles runs npm ci in urlwb/growth/regexes/)")

PLANTED = r"""exports.VERSION = "1.0.0";
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DATA_URL = /^data:(.*?),(.*?)(?:#(.*))?$/;
exports.parse = (input) => {
  const s = input.trim();
  if (!SCHEME.test(s)) throw new Error("no scheme");
  const m = s.match(DATA_URL);
  if (!m) throw new Error("Invalid URL");
  return { scheme: "data", path: m[1] + "," + m[2] };
};
"""


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    with npm_served(tmp_path_factory.mktemp("npm-redos"), "urlwb-planted-redos", {"1.0.0": {"index.js": PLANTED}}) as served:
        yield served


@needs_checker
def test_a_redos_is_found_from_the_package_s_regex_with_no_shape_typed(project, registry, tmp_path, capsys):
    config(project, {"planted-redos": {"command": f"node {ADAPTERS / 'npm_redos_adapter.js'}",
                                       "package": "npm:urlwb-planted-redos", "registry": registry.url}})
    # a second try where the first was not confirmed: under a CPU burn beside make test's two
    # workers, the 500-repetition time was noise and the flag went unconfirmed once (a fresh
    # clone's .ci/run, 2026-12-03); noise can hide a ReDoS, never make one, so without --regexes
    # both tries find nothing and the test still fails
    for attempt in range(2):
        out = tmp_path / f"growth-{attempt}"
        status = cli.main(["growth", "--parsers", "planted-redos@1.0.0", "--regexes", "--lengths", "500,5000",
                           "--runs", "2", "--no-file", "--out", str(out)])
        said = capsys.readouterr()
        if status == 1 or "not confirmed" not in said.out:
            break
    assert status == 1, said.out + said.err
    found = [json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()]
    (rec,) = [r for r in found if "regex" in r]
    assert rec["regex"]["where"] == "urlwb-planted-redos/index.js:3", rec["regex"]
    assert rec["regex"]["source"] == "^data:(.*?),(.*?)(?:#(.*))?$"
    assert rec["verdict"]["kind"] == "bug" and rec["rule"] in ("superlinear", "hang")
    assert rec["input_shape"]["shape"].endswith(", then 'x'"), rec["input_shape"]
    assert rec["input_shape"]["prefix"] == "data:" and "\n" in rec["input_shape"]["suffix"]
    assert len(rec["lengths"]) == 4 and rec["lengths"][0]["count"] * 8 == rec["lengths"][3]["count"]


@needs_checker
def test_a_pypi_release_s_regexes_are_read_from_its_record_and_asked(tmp_path):
    """A PyPI release's files as its wheel's RECORD lists them, read by Python's ast (never
    imported): the vulnerable pattern gets an attack with its file and line, the safe one none,
    a file the RECORD does not list is not read."""
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    (site / "planted_re").mkdir(parents=True)
    (site / "planted_re" / "__init__.py").write_text(
        "import re\nSAFE = re.compile(r'^[a-z]+$')\n\nWORDS = re.compile(r'^(\\w+\\s?)*$')\n")
    (site / "elsewhere.py").write_text("import re\nX = re.compile(r'^(a|a)*$')\n")
    info = site / "planted_re-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("planted_re/__init__.py,,\nplanted_re-1.0.dist-info/RECORD,,\n")
    spec = manifests.Spec(name="planted-re@1.0", command=["python"], cwd=tmp_path, package="pypi:planted-re",
                          folder=tmp_path)
    found, asked = regexes.attacks(spec)
    assert asked == 2
    recheck = [a for a in found if a.checker.startswith("recheck")]
    assert [(a.line, a.source) for a in recheck] == [(4, r"^(\w+\s?)*$")], found
    shapes = regexes.shapes(recheck)
    assert shapes and all(s.regex[0] == "planted_re/__init__.py:4" for s in shapes)
    if importlib.util.find_spec("regexploit") is not None:   # the PyPI side's own checker, when installed
        assert [(a.line, a.pump) for a in found if a.checker == "regexploit"] == [(4, "0")], found


def test_a_shipped_parser_at_a_release_is_read_from_its_build(tmp_path):
    """``url-parse@VERSION``'s build holds the release in node_modules, as a user's install does:
    --regexes reads its files (its own, not its dependencies'); the shipped name alone is refused."""
    own = tmp_path / "node_modules" / "url-parse"
    (own / "node_modules" / "dep").mkdir(parents=True)
    (own / "index.js").write_text("module.exports = /a+$/;\n")
    (own / "node_modules" / "dep" / "x.js").write_text("module.exports = /b+$/;\n")
    spec = manifests.Spec(name="url-parse@9.9.9", command=["node"], cwd=tmp_path, folder=tmp_path)
    assert regexes.package_files(spec) == ("JavaScript", [own / "index.js"])
    with pytest.raises(UsageError, match="not a package at a release"):
        regexes.package_files(manifests.Spec(name="url-parse", command=["node"], cwd=tmp_path, folder=tmp_path))
