"""The inputs every hunt starts from: WPT's and the grammar generator's, as text without a base.

Plain fuzzing of a parser alone reaches less of it than the generator's inputs do, so guidance
starts from them (and from ``fuzzers/fuzz_url.dict``). A generated (input, base) pair gives its
input only: a hunt corpus file is one input's UTF-8 text. Nothing here adds inputs of its own.
"""

from __future__ import annotations

import pathlib

from urlwb import corpus_store
from urlwb.differential import generate
from urlwb.fuzzdata import decode_text, encode_text

DICTIONARY = corpus_store.ROOT / "fuzzers" / "fuzz_url.dict"
#: libFuzzer's -max_len for every hunt (fuzz_url.options has the same)
MAX_LEN = 256


#: what a hunt starts from (``urlwb hunt --seeds``)
SEED_KINDS = {
    "wpt": "WPT's inputs, then generate.generate(N, seed=S)'s (two thirds of them mutated WPT inputs)",
    "grammar": "the grammar generator's assembled URLs and file URLs only (generate.assemble, "
               "generate.file_url): no WPT input, none mutated from one",
}


def grammar_inputs(n: int, seed: int) -> list[str]:
    """``n`` inputs of the URL grammar alone: three in four ``generate.assemble``, one in four
    ``generate.file_url``; deterministic in ``seed``."""
    import random
    rng = random.Random(seed)
    return [generate.file_url(rng) if rng.random() < 0.25 else generate.assemble(rng) for _ in range(n)]


def seed_inputs(n: int, seed: int, kind: str = "wpt") -> list[str]:
    """``kind`` "wpt": WPT's inputs, then ``generate.generate(n, seed)``'s; "grammar":
    :func:`grammar_inputs`; each once, in that order; only those whose UTF-8 is at most MAX_LEN
    bytes (the fuzzer would cut a longer one)."""
    out, seen = [], set()
    texts = ([t for t, _ in generate.wpt_cases() + list(generate.generate(n, seed=seed))]
             if kind == "wpt" else grammar_inputs(n, seed))
    for text in texts:
        if text not in seen and len(encode_text(text)) <= MAX_LEN:
            seen.add(text)
            out.append(text)
    return out


def write_corpus(folder: pathlib.Path, inputs: list[str]) -> list[pathlib.Path]:
    """One file per input, named by the SHA-1 of its bytes (as libFuzzer names its own). For
    the working folder only (``.urlwb/``, rewritten each hunt): plain writes, no fsync, which
    for thousands of seeds costs seconds on a busy disk."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for text in inputs:
        data = encode_text(text)
        path = folder / corpus_store.sha1(data)
        path.write_bytes(data)
        paths.append(path)
    return paths


def read_corpus(folder: pathlib.Path) -> list[tuple[pathlib.Path, str]]:
    """(path, text) of every regular file of ``folder`` (hidden ones skipped), sorted by name."""
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        data = corpus_store.read_input(path)
        if data is not None:
            out.append((path, decode_text(data)))
    return out


def go_corpus_file(data: bytes) -> str:
    """A Go fuzzing corpus file holding one ``[]byte`` argument (``go test fuzz v1``)."""
    return "go test fuzz v1\n[]byte(" + _go_quote(data) + ")\n"


def _go_quote(data: bytes) -> str:
    """``data`` as a Go interpreted string literal (every byte outside printable ASCII as \\xNN)."""
    out = ['"']
    for b in data:
        c = chr(b)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append(f"\\x{b:02x}")
    out.append('"')
    return "".join(out)


def read_go_corpus_file(text: str) -> bytes | None:
    """The bytes of a ``go test fuzz v1`` file with one ``[]byte(...)`` or ``string(...)``
    argument; None for anything else."""
    lines = text.splitlines()
    if len(lines) < 2 or lines[0] != "go test fuzz v1":
        return None
    arg = lines[1]
    for prefix in ("[]byte(", "string("):
        if arg.startswith(prefix) and arg.endswith(")"):
            return _go_unquote(arg[len(prefix):-1])
    return None


def _go_unquote(lit: str) -> bytes | None:
    """A Go string literal ("..." with escapes, or `...`) as bytes; None if it is not one."""
    if len(lit) >= 2 and lit[0] == lit[-1] == "`":
        return lit[1:-1].encode("utf-8")
    if len(lit) < 2 or lit[0] != '"' or lit[-1] != '"':
        return None
    body, out, i = lit[1:-1], bytearray(), 0
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e in "uU":
            width = 4 if e == "u" else 8
            out += chr(int(body[i + 2:i + 2 + width], 16)).encode("utf-8", "surrogatepass")
            i += 2 + width
        elif e in "01234567":
            out.append(int(body[i + 1:i + 4], 8))
            i += 4
        else:
            return None
    return bytes(out)


__all__ = ["DICTIONARY", "MAX_LEN", "seed_inputs", "write_corpus", "read_corpus",
           "go_corpus_file", "read_go_corpus_file", "decode_text"]
