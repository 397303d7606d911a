"""Shipped validators at other releases beyond npm and PyPI: ``jvm-guava@VERSION`` is built by
urlwb.oracles.versions.builds, the way Maven parsers are (a copy of the validator's pom with the
one version rewritten, ``mvn -q -B package``, ``built.json`` last, ``failed.json`` with the
registry's one-line reason); ``go-parseip@VERSION`` and ``ipaddress@VERSION`` cannot be had (each
ships with its runtime): one line, exit status 2. The fast tests put a stand-in ``mvn`` first on
PATH (no network); the slow one really builds Guava 31.0-jre and asks it."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from urlwb.errors import UsageError
from urlwb.oracles.versions import builds
from urlwb.oracles.versions.catalog import VALIDATORS
from urlwb.ssrf import catalog, install

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Maven's own sentence for an artifact that is not in the repository, as `mvn -q -B package` says it
NOT_FOUND = ("[ERROR] Failed to execute goal on project urlwb-jvm-validator: Could not resolve dependencies "
             "for project urlwb:urlwb-jvm-validator:jar:1: Could not find artifact com.google.guava:guava:jar:0.0-nope "
             "in central (https://repo.maven.apache.org/maven2) -> [Help 1]")
STANDIN = f"""#!/bin/sh
# a stand-in mvn: logs its arguments; the version 0.0-nope does not resolve; else it "builds" the jar
echo "$PWD $*" >> "$URLWB_TEST_MVN_LOG"
if grep -q '<version>0.0-nope</version>' pom.xml; then
  echo '{NOT_FOUND}'
  exit 1
fi
mkdir -p build/lib && : > build/urlwb-jvm-validator.jar
"""


@pytest.fixture
def standin(tmp_path, monkeypatch):
    """A cache in tmp_path and the stand-in mvn first on PATH; returns the calls' log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "mvn").write_text(STANDIN)
    (bin_dir / "mvn").chmod(0o755)
    log = tmp_path / "mvn.log"
    log.touch()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("URLWB_TEST_MVN_LOG", str(log))
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(tmp_path / "cache"))
    return log


def test_jvm_guava_at_a_version_is_built_in_the_versions_cache(standin, tmp_path):
    said: list[str] = []
    d = catalog.parse_flag("jvm-guava@31.0-jre", progress=said.append)
    folder = tmp_path / "cache" / "jvm-guava" / "31.0-jre"
    assert d.name == "jvm-guava@31.0-jre" and d.base == "jvm-guava" and d.version == "31.0-jre"
    shipped = catalog.SHIPPED["jvm-guava"]
    assert d.spec.kind == "validator" and d.spec.cwd == folder and d.spec.command == shipped.command
    assert d.spec.skip is None
    # The pom is the validator's with only Guava's version rewritten; the source is copied as it is.
    pom = (shipped.cwd / "pom.xml").read_text()
    assert (folder / "pom.xml").read_text() == pom.replace("<version>33.8.0-jre</version>", "<version>31.0-jre</version>")
    java = "src/main/java/urlwb/ssrf/Validator.java"
    assert (folder / java).read_text() == (shipped.cwd / java).read_text()
    meta = json.loads((folder / "built.json").read_text())
    assert (meta["registry"], meta["package"], meta["version"]) == ("maven", "com.google.guava:guava", "31.0-jre")
    assert meta["adapter"] == builds.adapter_digest(VALIDATORS["jvm-guava"])
    assert standin.read_text().splitlines() == [f"{folder} -B -q --strict-checksums package"]
    assert any("building jvm-guava@31.0-jre" in line for line in said)
    # Built once: the cache answers the next time, and replaying a filed witness finds it.
    assert catalog.parse_flag("jvm-guava@31.0-jre", progress=said.append).spec.cwd == folder
    assert len(standin.read_text().splitlines()) == 1
    assert install.present(shipped, "31.0-jre").cwd == folder
    assert install.present(shipped, "30.0-jre") is None


def test_a_guava_version_that_does_not_resolve_is_one_line_and_cached(standin, tmp_path):
    with pytest.raises(UsageError) as exc:
        catalog.parse_flag("jvm-guava@0.0-nope", progress=lambda line: None)
    message = str(exc.value)
    assert "\n" not in message and message.startswith("jvm-guava@0.0-nope does not build: Could not find artifact "
                                                      "com.google.guava:guava:jar:0.0-nope"), message
    folder = tmp_path / "cache" / "jvm-guava" / "0.0-nope"
    assert not (folder / "built.json").exists()
    assert "Could not find artifact" in json.loads((folder / "failed.json").read_text())["reason"]
    with pytest.raises(UsageError, match="cached in"):
        catalog.parse_flag("jvm-guava@0.0-nope", progress=lambda line: None)
    assert len(standin.read_text().splitlines()) == 1   # the registry's no is not asked again
    assert install.present(catalog.SHIPPED["jvm-guava"], "0.0-nope") is None


@pytest.mark.parametrize("flag,line", [
    ("go-parseip@1.22", "urlwb ssrf: --oracle go-parseip@1.22: go-parseip has no registry version: "
                        "it ships with the Go toolchain"),
    ("ipaddress@3.12", "urlwb ssrf: --oracle ipaddress@3.12: ipaddress has no registry version: "
                       "it ships with Python"),
])
def test_a_validator_that_ships_with_its_runtime_has_no_other_release(flag, line, tmp_path):
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    r = subprocess.run([sys.executable, "-c", entry, "ssrf", "--oracle", flag], capture_output=True, text=True,
                       timeout=60, cwd=ROOT, env={**os.environ, "URLWB_VERSIONS_CACHE": str(tmp_path)})
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith(line), r.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_jvm_guava_31_really_builds_and_answers(tmp_path, monkeypatch):
    """Slow: Maven fetches Guava 31.0-jre (or finds it in ~/.m2) and builds the validator."""
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(tmp_path))
    d = catalog.parse_flag("jvm-guava@31.0-jre", progress=lambda line: None)
    started, skipped = catalog.start([d])
    assert not skipped, skipped
    v = started["jvm-guava@31.0-jre"]
    try:
        assert "Guava 31.0-jre" in v.version
        got = v.check_many(["http://127.0.0.1/", "http://[::1]/", "http://93.184.215.14/"])
        assert [x.allow for x in got] == [False, False, True], got
    finally:
        v.close()
