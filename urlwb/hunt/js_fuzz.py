"""The JavaScript child of ``urlwb hunt``: a greybox fuzzer over one Node oracle, guided by V8's
block coverage of the parser's own scripts.

Invariant: none is checked here (as ``atheris_target.py``). The oracle is its adapter as the
differential runs it (the shipped ``urlwb/oracles/node/adapter.js``, its copy beside another
release in the versions cache, or a user's program speaking ``docs/oracle-protocol.md``),
started with ``urlwb/hunt/js/cover.cjs`` preloaded (``NODE_OPTIONS=--require``): each answer then
says how many block ranges of the covered scripts (``--roots``) it showed first. Requests go one
at a time. The loop is libFuzzer's in small: every seed is run; then an input of the corpus is
mutated (often one of the last inputs kept, or a seed that showed a block range first; one to four of: a code point inserted, replaced or removed, a dictionary token inserted,
a chunk repeated, a splice with another input; at most ``seeds.MAX_LEN`` UTF-8 bytes), and one
that shows a new block range is kept: written into ``WORK`` (named by the SHA-1 of its bytes, in
the hunt corpus format, ``urlwb.fuzzdata``), where the parent's judge finds it. An input on which
the oracle dies or gives no answer within ``--deadline`` is kept too (the judge sees the crash or
the hang) and written under ``ARTIFACTS`` as ``crash-SHA1`` or ``timeout-SHA1``, and the oracle
is started again. Jazzer.js would instrument the code instead; it does not run on this machine's
glibc (``urlwb/ssrf/validators/npm/guided.mjs`` says the same), and coverage read this way needs
nothing of the parser's package but its files.

    python -m urlwb.hunt.js_fuzz --command JSON --cwd DIR --roots A:B --work DIR --seeds DIR
        --artifacts DIR [--seconds S] [--runs N] [--seed N] [--dict FILE] [--deadline S]

Progress lines, every two seconds and at the end: ``#EXECS\tjs cov: BLOCKS kept: K exec/s: R``;
after the seeds, ``#EXECS\tINITED js cov: BLOCKS``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import select
import subprocess
import sys
import time

from urlwb import children, corpus_store
from urlwb.fuzzdata import decode_text, encode_text

HERE = pathlib.Path(__file__).resolve().parent
COVER = HERE / "js" / "cover.cjs"
MAX_LEN = 256
#: the code points a mutation inserts: the URL grammar's delimiters and a few of each class
ALPHABET = list("abcxyz019AZ.:/\\@[]%?#&=+-_~!$'()*,; \t\n\r\x00\x7f") + ["\u00e9", "\u3002", "\uff0e", "\u200d"]
#: always in the dictionary, beside the file's: the authority's delimiters together
TOKENS = ["//", "\\\\", "@", "@@", ":@", "[", "]", "[@", "]@", "\\@", "http://", "https://", "file:",
          "data:", "javascript:", "mailto:", "%40", "%2f", "%5c", "%2e", "..", "::", "127.0.0.1", "0x7f"]


def read_dictionary(path: str | None) -> list[str]:
    """libFuzzer's dictionary format: one ``"quoted"`` token a line, ``\\\\ \\" \\xNN`` escapes."""
    tokens = list(TOKENS)
    if path and os.path.exists(path):
        for line in open(path, encoding="utf-8", errors="replace"):
            line = line.strip()
            if line.startswith("#") or '"' not in line:
                continue
            body = line[line.index('"') + 1:line.rindex('"')]
            out, i = [], 0
            while i < len(body):
                if body[i] == "\\" and i + 1 < len(body):
                    if body[i + 1] == "x" and i + 3 < len(body):
                        out.append(chr(int(body[i + 2:i + 4], 16)))
                        i += 4
                        continue
                    out.append(body[i + 1])
                    i += 2
                    continue
                out.append(body[i])
                i += 1
            if out:
                tokens.append("".join(out))
    return tokens


def mutate(rng: random.Random, text: str, corpus: list[str], tokens: list[str]) -> str:
    cps = list(text)
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        at = rng.randint(0, len(cps))
        if r < 0.2:
            cps.insert(at, rng.choice(ALPHABET))
        elif r < 0.35 and cps:
            cps[rng.randrange(len(cps))] = rng.choice(ALPHABET)
        elif r < 0.5 and cps:
            i = rng.randrange(len(cps))
            del cps[i:i + rng.randint(1, 3)]
        elif r < 0.75:
            cps[at:at] = list(rng.choice(tokens))
        elif r < 0.85 and cps:
            i = rng.randrange(len(cps))
            chunk = cps[i:i + rng.randint(1, 4)]
            cps[i:i] = chunk * rng.randint(1, 3)
        else:
            other = list(rng.choice(corpus))
            j = rng.randint(0, len(other))
            cps = cps[:at] + other[j:]
    out = "".join(cps)
    while len(encode_text(out)) > MAX_LEN:
        out = out[:-1]
    return out


class Oracle:
    """The adapter with the coverage agent preloaded; one request at a time."""

    def __init__(self, command: list[str], cwd: str, roots: str, deadline: float):
        self.command, self.cwd, self.roots, self.deadline = command, cwd, roots, deadline
        self.proc = None
        self.buf = b""
        self.total = 0
        self.start()

    def start(self) -> None:
        env = dict(os.environ)
        env["NODE_OPTIONS"] = (env.get("NODE_OPTIONS", "") + f" --require {COVER}").strip()
        env["URLWB_COVER_ROOTS"] = self.roots
        self.proc = children.popen(self.command, cwd=self.cwd, env=env, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        hello = self.line(30.0)
        if hello is None or "hello" not in hello:
            raise RuntimeError(f"the oracle did not say hello: {self.command}")
        self.total = max(self.total, hello.get("_cov_total", 0))

    def line(self, deadline: float) -> dict | None:
        end = time.monotonic() + deadline
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk
        raw, _, self.buf = self.buf.partition(b"\n")
        try:
            return json.loads(raw)
        except ValueError:
            return {}

    def ask(self, rid: int, text: str) -> tuple[str, int]:
        """("ok", new block ranges), ("crash", 0) or ("hang", 0); restarted after the last two.
        ``self.allowed``: the answer said ``"allow": true`` (a validator's)."""
        self.allowed = False
        try:
            self.proc.stdin.write((json.dumps({"id": rid, "input": text, "base": None}) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.restart()
            return "crash", 0
        answer = self.line(self.deadline)
        if answer is None:
            hung = self.proc.poll() is None
            self.restart()
            return ("hang" if hung else "crash"), 0
        fresh = int(answer.get("_cov", 0) or 0)
        self.total += fresh
        self.allowed = answer.get("allow") is True
        return "ok", fresh

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        if self.proc is not None:
            children.kill_group(self.proc)
            children.release(self.proc)
            self.proc = None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--command", required=True, help="the adapter's command, a JSON list")
    ap.add_argument("--cwd", required=True)
    ap.add_argument("--roots", required=True, help="the covered folders, os.pathsep between them")
    ap.add_argument("--work", type=pathlib.Path, required=True)
    ap.add_argument("--seeds", type=pathlib.Path, required=True)
    ap.add_argument("--artifacts", type=pathlib.Path, required=True)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dict", default=None)
    ap.add_argument("--deadline", type=float, default=10.0)
    ap.add_argument("--allowed", type=pathlib.Path, default=None,
                    help="a validator's run (urlwb ssrf's guided pass): append {\"input\": ...} for each "
                         "mutant it allows that showed a new block range or holds a digit (3,000 at most)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    tokens = read_dictionary(args.dict)
    args.work.mkdir(parents=True, exist_ok=True)
    args.artifacts.mkdir(parents=True, exist_ok=True)
    oracle = Oracle(json.loads(args.command), args.cwd, args.roots, args.deadline)
    t0 = time.monotonic()
    execs = kept = 0
    corpus: list[str] = []
    for path in sorted(list(args.seeds.iterdir()) + list(args.work.iterdir())):
        if path.is_file() and not path.name.startswith("."):
            corpus.append(decode_text(path.read_bytes()))
    seen = set(corpus)
    sent: set[str] = set()   # the allowed mutants written to --allowed
    allowed = 0

    def keep(text: str, how: str) -> None:
        nonlocal kept
        data = encode_text(text)
        name = corpus_store.sha1(data)
        (args.work / name).write_bytes(data)
        if how != "ok":
            (args.artifacts / f"{'timeout' if how == 'hang' else 'crash'}-{name}").write_bytes(data)
        kept += 1

    def status(tag: str = "") -> None:
        rate = execs / max(1e-9, time.monotonic() - t0)
        print(f"#{execs}\t{tag}js cov: {oracle.total} kept: {kept} exec/s: {rate:.0f}", flush=True)

    try:
        favoured: list[str] = []
        for text in list(corpus):
            how, fresh = oracle.ask(execs, text)
            execs += 1
            if fresh:
                favoured.append(text)
            if how != "ok":
                keep(text, how)
        status("INITED ")
        if not corpus:
            corpus.append("http://a/")
        n_seeds = len(corpus)
        last = time.monotonic()
        while time.monotonic() - t0 < args.seconds and (not args.runs or execs < args.runs):
            # AFL's favouring, in small: 40% of the time one of the 16 inputs kept last, 30% a
            # seed that showed a block range first, else any input (among thousands of seeds,
            # the one that went one branch further would otherwise be mutated again once in
            # thousands of executions)
            fresh_ones, r = corpus[n_seeds:][-16:], rng.random()
            parent = (rng.choice(fresh_ones) if fresh_ones and r < 0.4 else
                      rng.choice(favoured) if favoured and r < 0.7 else rng.choice(corpus))
            text = mutate(rng, parent, corpus, tokens)
            how, fresh = oracle.ask(execs, text)
            execs += 1
            if args.allowed is not None and oracle.allowed and allowed < 3000 and text not in sent and (
                    fresh or any(c.isdigit() for c in text)):
                sent.add(text)
                allowed += 1
                with open(args.allowed, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"input": text}, ensure_ascii=False) + "\n")
            if (fresh or how != "ok") and text not in seen:
                seen.add(text)
                corpus.append(text)
                keep(text, how)
            if time.monotonic() - last > 2:
                last = time.monotonic()
                status()
        status("DONE ")
    finally:
        oracle.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
