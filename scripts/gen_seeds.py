#!/usr/bin/env python3
"""Generate the seed corpora ``corpus/<target>/seed/`` from the vendored WPT and PSL test data.

Each seed is written in its target's input format (``urlwb.fuzzdata``: text first, choices last),
named by the SHA-1 of its bytes, at most ``--cap`` (default 200) per target, chosen evenly across
the data so that every section of the WPT files is represented. The choice lists (percent-encode
sets, encodings, setters, methods) are read from the target modules themselves, so a seed always
means what its target reads.

    python scripts/gen_seeds.py [--cap N] [--clean] [TARGET ...]

Without ``--clean`` seeds are only added (a merged-in seed is never removed); with it each seed
folder is emptied first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import sys
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from properties import spellings  # noqa: E402
from urlwb import corpus_store  # noqa: E402
from urlwb.fuzzdata import Writer  # noqa: E402

DATA = ROOT / "tests" / "data"


def wpt(name: str) -> list[dict]:
    with open(DATA / "wpt" / name, encoding="utf-8") as fh:
        return [case for case in json.load(fh) if isinstance(case, dict)]


def url_cases() -> list[dict]:
    return wpt("urltestdata.json") + wpt("urltestdata-javascript-only.json")


def authority(url: str) -> str | None:
    """The host part of ``scheme://[userinfo@]host[:port]/...``, found crudely (seeds only)."""
    m = re.match(r"^[\s]*[A-Za-z][A-Za-z0-9+.\-]*:[/\\]{2}([^/\\?#]*)", url)
    if not m:
        return None
    host = m.group(1).rpartition("@")[2]
    if host.startswith("["):
        return host.partition("]")[0] + "]"
    return host.rpartition(":")[0] if re.search(r":\d*$", host) else host


def searches() -> list[str]:
    return [c["search"][1:] for c in url_cases() if c.get("search")] + [
        "a=1&b=2&a=3", "a+b=c+d&%20=%2B", "=&=&", "%zz=%&x", "\u2020=\u00e9&\ud800=1"]


def index(seq, value) -> tuple[int, int]:
    return list(seq).index(value), len(seq)


# -- per target: the structured inputs, each turned into bytes by the target's input format ------

def seeds_url(mod) -> Iterator[bytes]:
    for i, c in enumerate(url_cases()):
        w = Writer()
        if c.get("base") is None:
            w.choice(0, 2)
        else:
            w.choice(1, 2).text(c["base"])
        yield w.choice(i % len(mod.CHECKS), len(mod.CHECKS)).rest(c["input"]).data()


def seeds_setters(mod) -> Iterator[bytes]:
    with open(DATA / "wpt" / "setters_tests.json", encoding="utf-8") as fh:
        tests = json.load(fh)
    for attr, cases in tests.items():
        if attr == "comment":
            continue
        for c in cases:
            w = Writer().text(c["href"]).integer(0, mod.MAX_STEPS, 1)
            yield w.choice(*index(mod.SETTERS, attr)).text(c["new_value"]).data()


def seeds_host(mod) -> Iterator[bytes]:
    # One trailing choice of (is_opaque, part): the parts alternate from seed to seed.
    inputs = []
    for c in url_cases():
        host = authority(c["input"])
        if host is not None:
            special = c["input"].strip().lower().split(":")[0] in ("http", "https", "ws", "wss", "ftp", "file")
            inputs.append((host, not special))
    inputs += [(c["input"], False) for c in wpt("toascii.json")]
    for i, (host, is_opaque) in enumerate(inputs):
        yield Writer().choice(mod.MODES.index((is_opaque, mod.invariants.HOST_IDEMPOTENCE_PARTS[i % 2])),
                              len(mod.MODES)).rest(host).data()


def seeds_idna(mod) -> Iterator[bytes]:
    for c in wpt("toascii.json") + wpt("IdnaTestV2.json"):
        yield Writer().rest(c["input"]).data()


def seeds_ipv4(mod) -> Iterator[bytes]:
    for c in url_cases():
        host = authority(c["input"])
        if host and re.fullmatch(r"[0-9a-fA-FxX.%]+", host):
            yield Writer().choice(0, 2).rest(host).data()
    for n in (0, 1, 0x7F000001, 0xC0A80001, 0xFFFFFFFF, 0x01020304):
        yield Writer().choice(1, 2).integer(0, 2**32 - 1, n).data()


def seeds_ipv6(mod) -> Iterator[bytes]:
    for c in url_cases():
        host = authority(c["input"])
        if host and host.startswith("["):
            yield Writer().choice(0, 2).rest(host[1:-1]).data()
    for pieces in ((0,) * 8, (0,) * 7 + (1,), (0, 0, 0, 0, 0, 0xFFFF, 0x7F00, 1),
                   (0x2001, 0xDB8, 0, 0, 1, 0, 0, 1), tuple(range(1, 9)), (0xFFFF,) * 8):
        w = Writer().choice(1, 2)
        for p in pieces:
            w.integer(0, 0xFFFF, p)
        yield w.data()


def seeds_percent(mod) -> Iterator[bytes]:
    strings = [c["input"] for c in wpt("percent-encoding.json")]
    strings += [c[k] for c in url_cases() for k in ("pathname", "search", "hash", "username") if c.get(k)]
    for i, s in enumerate(strings):
        yield Writer().choice(i % len(mod.MODES), len(mod.MODES)).rest(s).data()


def seeds_encodings(mod) -> Iterator[bytes]:
    for c in wpt("percent-encoding.json"):
        for enc in c["output"]:
            if enc in mod.ENCODINGS:
                for set_name in ("special-query", "query", "application/x-www-form-urlencoded"):
                    yield (Writer().choice(*index(mod.ENCODINGS, enc))
                           .choice(*index(mod.SETS, set_name)).rest(c["input"]).data())
    for i, s in enumerate(searches()):
        yield (Writer().choice(i % len(mod.ENCODINGS), len(mod.ENCODINGS))
               .choice(*index(mod.SETS, "special-query")).rest(s).data())


def seeds_public_suffix(mod) -> Iterator[bytes]:
    text = (DATA / "psl" / "test_psl.txt").read_text(encoding="utf-8")
    for m in re.finditer(r"^checkPublicSuffix\('([^']*)'", text, re.M):
        yield Writer().rest(m.group(1)).data()


def seeds_urlencoded(mod) -> Iterator[bytes]:
    for s in searches():
        yield Writer().choice(0, 2).rest(s).data()
        pairs = [p.partition("=")[::2] for p in s.split("&") if p][: mod.MAX_PAIRS]
        w = Writer().choice(1, 2).integer(0, mod.MAX_PAIRS, len(pairs))
        for name, value in pairs:
            w.text(name).text(value)
        yield w.data()


def seeds_search_params(mod) -> Iterator[bytes]:
    plans = [("append", "a", "b"), ("delete", "a"), ("delete_value", "a", "1"), ("get", "a"),
             ("get_all", "a"), ("has", "b"), ("has_value", "a", "3"), ("set", "a", "\u2020"),
             ("sort",)]
    for i, s in enumerate(searches()):
        ops = [plans[i % len(plans)], plans[(i + 4) % len(plans)]]
        w = Writer().text(s).integer(0, mod.MAX_OPS, len(ops))
        for method, *args in ops:
            w.choice(*index(mod.METHODS, method))
            for a in args:
                w.text(a)
        yield w.data()


def seeds_fast_path(mod) -> Iterator[bytes]:
    # The whole input is the text: WPT inputs and their hrefs (the hrefs are mostly the simple
    # absolute URLs the fast path takes).
    for c in url_cases():
        for text in (c["input"], c.get("href")):
            if text:
                yield text.encode("utf-8", "surrogatepass")


def seeds_reference(mod) -> Iterator[bytes]:
    # First (spread() always keeps the first): a case for the one step of the reference that
    # neither the spread of WPT's cases below nor 600,000 fuzzing runs reached, the scheme
    # state's step 2.1.3 (a URL with a port cannot become a file URL).
    yield (Writer().choice(*index(mod.MODES, "protocol")).choice(*index(mod.ENCODINGS, "utf-8"))
           .text("file").rest("https://example.net:1234").data())
    # WPT's URL inputs, alone and with their bases, alternating, in UTF-8 and (for those with a
    # query) in each other encoding in turn; and setters_tests.json's cases (the href as the
    # input, the new value as the setter's value).
    for i, c in enumerate(url_cases()):
        encoding = mod.ENCODINGS[i % len(mod.ENCODINGS)] if "?" in c["input"] else "utf-8"
        mode = "alone" if c.get("base") is None or i % 2 else "base"
        w = Writer().choice(*index(mod.MODES, mode)).choice(*index(mod.ENCODINGS, encoding))
        if mode == "base":
            w.text(c["base"])
        yield w.rest(c["input"]).data()
    with open(DATA / "wpt" / "setters_tests.json", encoding="utf-8") as fh:
        tests = json.load(fh)
    for attr, cases in tests.items():
        for c in cases if attr != "comment" else ():
            yield (Writer().choice(*index(mod.MODES, attr)).choice(*index(mod.ENCODINGS, "utf-8"))
                   .text(c["new_value"]).rest(c["href"]).data())


GENERATORS = {name[len("seeds_"):]: fn for name, fn in globals().items() if name.startswith("seeds_")}


def spelling_seeds_url(mod) -> Iterator[bytes]:
    """The example of every URL spelling in properties/spellings.py (dot segments, drive letters
    in file URLs and in references against file bases, ...), with its base: the WPT cases the
    cap keeps need not hold them, and a dictionary token cannot give an input its base."""
    examples = [x.example for x in spellings.SPELLINGS if x.example and x.example.kind == "url"]
    for i, example in enumerate(examples):
        w = Writer().choice(0, 2) if example.base is None else Writer().choice(1, 2).text(example.base)
        yield w.choice(i % len(mod.CHECKS), len(mod.CHECKS)).rest(example.text).data()


#: seeds added beyond the cap, per target
BEYOND_THE_CAP = {"url": spelling_seeds_url}


def spread(items: list[bytes], cap: int) -> list[bytes]:
    """Unique items, at most ``cap`` of them, taken evenly across the list."""
    unique = list(dict.fromkeys(items))
    if len(unique) <= cap:
        return unique
    return [unique[i * len(unique) // cap] for i in range(cap)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help="targets (default: every target with a generator)")
    parser.add_argument("--cap", type=int, default=200, help="at most this many seeds per target")
    parser.add_argument("--clean", action="store_true", help="empty each seed folder first")
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in GENERATORS]
    if unknown:
        parser.error(f"no seed generator for {', '.join(unknown)} (known: {', '.join(GENERATORS)})")
    for target in args.targets or list(GENERATORS):
        module = corpus_store.load_target(target)
        seeds = spread(list(GENERATORS[target](module)), args.cap)
        if target in BEYOND_THE_CAP:
            seeds += [s for s in BEYOND_THE_CAP[target](module) if s not in seeds]
        folder = corpus_store.seed_dir(target)
        folder.mkdir(parents=True, exist_ok=True)
        if args.clean:
            for old in folder.iterdir():
                if old.is_file():
                    old.unlink()
        new = 0
        for data in seeds:
            path = folder / hashlib.sha1(data).hexdigest()
            if not path.exists():
                corpus_store.atomic_write(path, data)
                new += 1
        print(f"{target:14} {len(seeds):4} seeds ({new} new) in {folder.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
