"""Node parsers under V8's own block coverage (``NODE_V8_COVERAGE``, no package): per script, the
functions V8 compiled and their block ranges with counts. Read here into lines (a non-blank line
is run when a code point on it is in a range run at least once, innermost range first) and
blocks (each range but a function's own: the branch figure). npm packages' scripts are read from
``node_modules/``; a builtin module's (``node:url``) from Node itself
(``process.binding('natives')``, deprecated in Node 20 but there)."""

from __future__ import annotations

import json
import pathlib
import tempfile
import time

from urlwb import children
from urlwb.oracles import manifests
from urlwb.reach import adapter
from urlwb.reach.model import Function, Reach

FOLDER = manifests.ROOT / "node"


def _builtin_sources(ids: list[str]) -> dict[str, str]:
    script = ("const n = process.binding('natives'); const out = {};"
              f"for (const k of {json.dumps(ids)}) out[k] = n[k] || null;"
              "process.stdout.write(JSON.stringify(out));")
    proc = children.run(["node", "--no-deprecation", "-e", script], capture_output=True,
                        text=True, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"node could not give its builtin sources: {proc.stderr.strip()[-200:]}")
    return {k: v for k, v in json.loads(proc.stdout).items() if v is not None}


def _ours(url: str, code: tuple[str, ...]) -> bool:
    if url.startswith("node:"):
        return url in code
    return url.startswith("file://") and any("/" + c in url for c in code if not c.startswith("node:"))


def measure(name: str, language: str, code: tuple[str, ...], items, log=print) -> Reach:
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-node-") as tmp:
        version, _ = adapter.run(name, items, env={"NODE_V8_COVERAGE": tmp})
        scripts = []
        for path in sorted(pathlib.Path(tmp).glob("coverage-*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            scripts += [s for s in data.get("result", []) if _ours(s["url"], code)]
    builtins = _builtin_sources([s["url"][len("node:"):] for s in scripts if s["url"].startswith("node:")])
    reach = Reach(name, language, version, "V8 block coverage (NODE_V8_COVERAGE)", unit="lines",
                  branch_unit="blocks", inputs=len(items))
    for s in sorted(scripts, key=lambda s: s["url"]):
        url = s["url"]
        if url.startswith("node:"):
            source, shown = builtins.get(url[len("node:"):]), url
        else:
            p = pathlib.Path(url[len("file://"):])
            source = p.read_text(encoding="utf-8") if p.exists() else None
            shown = str(p.relative_to(FOLDER / "node_modules")) if FOLDER / "node_modules" in p.parents else str(p)
        if source is None:
            continue
        reach.files.append(shown)
        reach.functions += _functions(shown, source, s["functions"])
    reach.seconds = time.monotonic() - t0
    return reach


def _functions(shown: str, source: str, functions: list[dict]) -> list[Function]:
    """Lines and blocks per function of one script (offsets are UTF-16 code units)."""
    units = source.encode("utf-16-le")
    n = len(units) // 2
    count = [-1] * n
    owner = [-1] * n
    for fi, fn in enumerate(functions):          # outer before inner: later ranges win
        for k, r in enumerate(fn["ranges"]):
            lo, hi = max(0, r["startOffset"]), min(n, r["endOffset"])
            count[lo:hi] = [r["count"]] * (hi - lo)
            if k == 0:
                owner[lo:hi] = [fi] * (hi - lo)
    text = units.decode("utf-16-le", "surrogatepass") if False else None  # noqa: F841 (offsets below are per code unit)
    line_of = []
    line = 1
    chars = [units[2 * i] | (units[2 * i + 1] << 8) for i in range(n)]
    for c in chars:
        line_of.append(line)
        if c == 0x0A:
            line += 1
    per_line: dict[int, tuple[int, bool]] = {}   # line -> (owning function, run)
    for i, c in enumerate(chars):
        if c in (0x20, 0x09, 0x0A, 0x0D) or owner[i] < 0:
            continue
        ln = line_of[i]
        fi, run = per_line.get(ln, (owner[i], False))
        per_line[ln] = (max(fi, owner[i]) if fi == owner[i] else fi, run or count[i] > 0)
    out = []
    for fi, fn in enumerate(functions):
        ranges = fn["ranges"]
        start = ranges[0]["startOffset"]
        if start == 0 and not fn["functionName"]:
            continue   # the script's top level (ran at load)
        mine = [(ln, run) for ln, (o, run) in per_line.items() if o == fi]
        blocks = ranges[1:]
        missed = sorted({line_of[min(n - 1, b["startOffset"])] for b in blocks if b["count"] == 0})
        name = fn["functionName"] or f"(anonymous at line {line_of[min(n - 1, start)]})"
        out.append(Function(shown, name, line_of[min(n - 1, start)], sum(run for _, run in mine),
                            len(mine), sum(b["count"] > 0 for b in blocks) if ranges[0]["count"] else 0,
                            len(blocks), missed if ranges[0]["count"] else []))
    return out
