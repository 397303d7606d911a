"""JVM parsers under JaCoCo: its agent (``-javaagent:...=destfile=...,includes=...``) on the
adapter's JVM, then ``jacococli report --xml`` over the parser's jar, read per method (lines
and branches as JaCoCo counts them: a line is covered when one of its instructions ran). JaCoCo
comes from Maven Central through the small pom beside this module (``jacoco/pom.xml``: agent
runtime and CLI 0.8.15, cached in ~/.m2, copied into ``jacoco/build/``, git-ignored).
"""

from __future__ import annotations

import fnmatch
import pathlib
import tempfile
import time
import xml.etree.ElementTree as ET

from urlwb import children
from urlwb.oracles import manifests
from urlwb.reach import adapter
from urlwb.reach.model import Function, Reach

HERE = pathlib.Path(__file__).resolve().parent / "jacoco"
AGENT = HERE / "build" / "org.jacoco.agent-runtime.jar"
CLI = HERE / "build" / "org.jacoco.cli-nodeps.jar"
JAVA = manifests.ROOT / "java"
VERSION = "0.8.15"


def fetch(log=print) -> None:
    """The agent and the CLI jars, from ~/.m2 or Maven Central (``mvn dependency:copy-dependencies``)."""
    if AGENT.exists() and CLI.exists():
        return
    log(f"  fetching JaCoCo {VERSION} (agent, CLI) through Maven into {HERE / 'build'}")
    proc = children.run(["mvn", "-q", "-B", "dependency:copy-dependencies"], cwd=HERE,
                        capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or not (AGENT.exists() and CLI.exists()):
        raise RuntimeError(f"JaCoCo could not be fetched: {(proc.stdout + proc.stderr).strip().splitlines()[-1:] or ['?']}")


def jars(patterns: tuple[str, ...]) -> list[pathlib.Path]:
    found = [p for pat in patterns for p in sorted(JAVA.glob(pat))]
    if not found:
        raise RuntimeError(f"no jar {', '.join(patterns)} in {JAVA} (run `make oracles`)")
    return found


def _pattern(cls: str) -> str:
    """A JaCoCo includes pattern (okhttp3.HttpUrl*) as a path pattern of the XML's class names
    (okhttp3/HttpUrl*, nested classes okhttp3/HttpUrl$Builder)."""
    return cls.replace(".", "/")


def measure(name: str, language: str, classes: tuple[str, ...], jar_patterns: tuple[str, ...],
            items, log=print) -> Reach:
    t0 = time.monotonic()
    fetch(log)
    classfiles = jars(jar_patterns)
    spec = adapter.spec_of(name)
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-jvm-") as tmp:
        tmp = pathlib.Path(tmp)
        agent = f"-javaagent:{AGENT}=destfile={tmp / 'jacoco.exec'},includes={':'.join(classes)}"
        command = [spec.command[0], agent, *spec.command[1:]]
        version, _ = adapter.run(name, items, command=command)
        xml = tmp / "report.xml"
        args = ["java", "-jar", str(CLI), "report", str(tmp / "jacoco.exec"), "--xml", str(xml)]
        for jar in classfiles:
            args += ["--classfiles", str(jar)]
        proc = children.run(args, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"jacococli report failed: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
        root = ET.parse(xml).getroot()
    reach = Reach(name, language, version, f"JaCoCo {VERSION}", unit="lines", inputs=len(items))
    patterns = [_pattern(c) for c in classes]
    for package in root.iter("package"):
        lines_of: dict[str, dict[int, tuple[int, int, int, int]]] = {}
        for sf in package.iter("sourcefile"):
            lines_of[sf.get("name")] = {int(ln.get("nr")): (int(ln.get("mi")), int(ln.get("ci")),
                                                             int(ln.get("mb")), int(ln.get("cb")))
                                        for ln in sf.iter("line")}
        # where each method of each class of a source file starts: a method's lines run to the
        # next start in the file (a nested class's methods sit between its outer class's)
        starts_of: dict[str, list[int]] = {}
        for cls in package.iter("class"):
            starts_of.setdefault(cls.get("sourcefilename") or "?", []).extend(
                int(m.get("line") or 0) for m in cls.iter("method"))
        for cls in package.iter("class"):
            cname = cls.get("name")
            if not any(fnmatch.fnmatchcase(cname, p) or fnmatch.fnmatchcase(cname.split("$")[0], p) for p in patterns):
                continue
            source = cls.get("sourcefilename") or "?"
            shown = f"{package.get('name')}/{source}"
            if shown not in reach.files:
                reach.files.append(shown)
            file_lines = lines_of.get(source, {})
            method_starts = sorted(set(starts_of.get(source, [])))
            for m in cls.iter("method"):
                counters = {c.get("type"): (int(c.get("missed")), int(c.get("covered"))) for c in m.iter("counter")}
                lm, lc = counters.get("LINE", (0, 0))
                bm, bc = counters.get("BRANCH", (0, 0))
                start = int(m.get("line") or 0)
                later = [s for s in method_starts if s > start]
                end = later[0] if later else 1 << 30
                missed = [] if not start else [nr for nr, (_, _, mb, _) in sorted(file_lines.items())
                                               if start <= nr < end and mb]
                short = cname.rsplit("/", 1)[-1]
                reach.functions.append(Function(shown, f"{short}.{m.get('name')}", start, lc, lc + lm,
                                                bc, bc + bm, missed))
    reach.seconds = time.monotonic() - t0
    return reach
