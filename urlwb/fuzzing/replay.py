"""``urlwb replay [TARGET ...]``: replay seed and regress corpora through their targets' checks.

Inputs run in a child process (``python -m urlwb.fuzzing.replay --child``), one child per target, in
order; the child prints ``RUN i`` before and ``OK i`` after each input. An input that fails kills
the child with Python's own traceback on stderr (nothing is caught: the harness catches no
exception at all), which ``urlwb.fuzzing.signatures.of_failure`` turns into a signature; a new child then goes
on from the next input. An input that runs longer than ``--timeout`` seconds has its stack dumped
(faulthandler, SIGUSR1) and is reported as a timeout. With a coverage data file, each child
measures the engine's branch coverage (coverage.py, no atheris) and saves it even when it dies.
"""

from __future__ import annotations

import atexit
import dataclasses
import faulthandler
import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

from urlwb import children, corpus_store
from urlwb.fuzzing import signatures
from urlwb.cliutil import add_seconds, add_targets, alias, seconds_flag
from urlwb.errors import UsageError

#: seconds allowed before the first input (imports, tables)
STARTUP_TIMEOUT = 120.0


@dataclasses.dataclass
class Outcome:
    path: pathlib.Path
    ok: bool
    kind: str = ""          # for a failure: invariant | exception | timeout; "skipped": unreadable
    signature: str = ""
    detail: str = ""
    stderr: str = ""


class ReplayError(Exception):
    """A target that cannot even start (import error): not a finding about an input."""

def replay(target: str, paths: list[pathlib.Path], *, timeout: float = 10.0,
           coverage_file: pathlib.Path | None = None,
           progress: Callable[[int, int], None] | None = None) -> list[Outcome]:
    """Run every input of ``paths`` through ``target``'s check; one Outcome per input, in order.
    Unreadable inputs are reported (stderr) and skipped: Outcome(ok=True, kind="skipped")."""
    all_paths = [pathlib.Path(p) for p in paths]
    ok = [corpus_store.readable(p) for p in all_paths]
    done = iter(_replay(target, [p for p, good in zip(all_paths, ok) if good], timeout, coverage_file, progress))
    return [next(done) if good else Outcome(p, True, "skipped") for p, good in zip(all_paths, ok)]


def _replay(target, paths, timeout, coverage_file, progress) -> list[Outcome]:
    outcomes: dict[int, Outcome] = {}
    if not paths:
        return []
    with tempfile.TemporaryDirectory(prefix="urlwb-replay-") as tmp:
        listfile = pathlib.Path(tmp, "inputs")
        listfile.write_text("\n".join(str(p) for p in paths) + "\n", encoding="utf-8",
                            errors="surrogateescape")
        start = 0
        while start < len(paths):
            cmd = [sys.executable, "-m", "urlwb.fuzzing.replay", "--child", target, str(listfile), str(start)]
            if coverage_file is not None:
                cmd.append(str(coverage_file))
            errpath = pathlib.Path(tmp, f"stderr-{start}")
            with open(errpath, "w+", encoding="utf-8", errors="replace") as err:
                proc = children.popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                        errors="replace", env=_child_env())
                q: queue.Queue = queue.Queue()
                threading.Thread(target=children.read_lines, args=(proc.stdout, q), daemon=True).start()
                current, ready, timed_out, signed = None, False, False, None
                while True:
                    try:
                        line = q.get(timeout=timeout if ready else STARTUP_TIMEOUT)
                    except queue.Empty:
                        timed_out = True
                        proc.send_signal(signal.SIGUSR1)   # faulthandler dumps the stack
                        time.sleep(0.5)
                        children.kill_group(proc)
                        break
                    if line is None:
                        break
                    word, _, num = line.partition(" ")
                    if word == "READY":
                        ready = True
                    elif word == "RUN":
                        current, signed = int(num), None
                    elif word == "SIGNATURE":
                        signed = json.loads(num)
                    elif word == "SKIP" and current is not None:
                        outcomes[current] = Outcome(paths[current], True, "skipped",
                                                    detail=num.partition(" ")[2])
                        current = None
                        if progress:
                            progress(len(outcomes), len(paths))
                    elif word == "OK" and current is not None:
                        outcomes[current] = Outcome(paths[current], True)
                        current = None
                        if progress:
                            progress(len(outcomes), len(paths))
                children.release(proc)
                err.seek(0)
                stderr = err.read()
            if not ready:
                last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {proc.returncode}"
                raise ReplayError(f"target {target} does not start: {last}")
            if current is None:
                if proc.returncode != 0:
                    raise ReplayError(f"target {target}: child exited {proc.returncode} between inputs")
                break
            kind, signature, detail = signed or signatures.of_failure(stderr, proc.returncode, timed_out)
            outcomes[current] = Outcome(paths[current], False, kind, signature, detail, stderr)
            if progress:
                progress(len(outcomes), len(paths))
            start = current + 1
    return [outcomes[i] for i in sorted(outcomes)]


def _child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(corpus_store.ROOT), env.get("PYTHONPATH")]))
    return env


def _child(argv: list[str]) -> None:
    """Child side: ``--child TARGET LISTFILE START [COVERAGE_DATA_FILE]``."""
    target, listfile, start = argv[0], pathlib.Path(argv[1]), int(argv[2])
    faulthandler.register(signal.SIGUSR1, all_threads=False)
    if len(argv) > 3:

        import coverage

        cov = coverage.Coverage(data_file=argv[3], data_suffix=True,
                                config_file=str(corpus_store.ROOT / "pyproject.toml"))
        cov.start()

        def save() -> None:
            cov.stop()
            cov.save()
        atexit.register(save)
    module = corpus_store.load_target(target)
    check, hook = module.check, getattr(module, "signatures", None)
    cannot = getattr(module, "cannot_replay", None)
    paths = listfile.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    print("READY", flush=True)
    for i in range(start, len(paths)):
        data = corpus_store.read_input(pathlib.Path(paths[i]))
        print(f"RUN {i}", flush=True)
        reason = cannot(data) if cannot is not None and data is not None else None
        if reason:   # an entry about an oracle this machine does not run: not judged here
            print(f"SKIP {i} {reason}", flush=True)
            continue
        if data is not None:
            try:
                check(data)
            except BaseException:
                if hook is not None:  # the target signs its own findings (urlwb.fuzzing.signatures)
                    found = hook(data)
                    if found:
                        print("SIGNATURE " + json.dumps(found[0]), flush=True)
                raise
        print(f"OK {i}", flush=True)


# -- the subcommand ---------------------------------------------------------------------------

def add_arguments(parser) -> None:
    add_targets(parser)
    parser.add_argument("--work", action="store_true",
                        help="also replay the working corpus (.urlwb/corpus/<target>/)")
    add_seconds(parser, "each input before it counts as a timeout", 10.0, name="--timeout-seconds",
                dest="timeout")
    alias(parser, "--timeout", "--timeout-seconds")
    parser.add_argument("--mark-fixed", action="store_true",
                        help="flip open regress entries that now pass to status fixed")
    parser.add_argument("--migrate-signatures", action="store_true",
                        help="rewrite the stored signature of each open entry that the one "
                             "signature scheme (urlwb.fuzzing.signatures) now signs otherwise")
    parser.add_argument("--repair", action="store_true",
                        help="complete each orphan (an input whose filing was interrupted before "
                             "its sidecar): replay it and write its sidecar")


def run(args) -> int:
    seconds_flag("--timeout-seconds", args.timeout)
    targets = corpus_store.resolve_targets(args.targets)
    for t in args.targets if args.targets != ["all"] else []:
        corpus_store.require_corpus(t)
    entries = {t: list(corpus_store.iter_regress(t)) for t in targets}   # validates sidecars
    bad = 0
    print(f"{'target':14} {'seeds':>11} {'work':>11} {'fixed':>9} {'open':>14}")
    for t in targets:
        seeds = list(corpus_store.iter_seeds(t))
        work = sorted(corpus_store.work_dir(t).iterdir()) if args.work else []
        regress = [e for e in entries[t] if e.sidecar]
        for e in entries[t]:
            if e.sidecar is None:
                if args.repair:
                    print(f"  REPAIRED {e.path}: {repair_orphan(e)}")
                    continue
                bad += 1
                print(f"  ORPHAN {e.path}: input without sidecar (an interrupted filing; "
                      f"complete it with: urlwb replay --repair {t})")
        if args.migrate_signatures:
            for e in regress:
                migrated = migrate_signature(e)
                if migrated:
                    print(f"  MIGRATED {e.path}: {migrated}")
        try:
            results = replay(t, seeds + work + [e.path for e in regress], timeout=args.timeout)
        except ReplayError as exc:
            print(f"urlwb replay: {exc}", file=sys.stderr)
            bad += 1
            continue
        s_res, w_res, r_res = (results[:len(seeds)], results[len(seeds):len(seeds) + len(work)],
                               results[len(seeds) + len(work):])
        failures = [o for o in s_res + w_res if not o.ok]
        fixed_broken = [o for o, e in zip(r_res, regress) if e.status != "open" and not o.ok]
        open_passing = [(o, e) for o, e in zip(r_res, regress)
                        if e.status == "open" and o.ok and o.kind != "skipped"]
        for o in r_res:
            if o.kind == "skipped" and o.detail:
                print(f"  SKIP  {o.path}: {o.detail}")
        n_open = sum(1 for e in regress if e.status == "open")
        n_fixed = len(regress) - n_open
        print(f"{t:14} {len(seeds) - sum(not o.ok for o in s_res):>5}/{len(seeds):<5} "
              f"{len(work) - sum(not o.ok for o in w_res):>5}/{len(work):<5} "
              f"{n_fixed - len(fixed_broken):>4}/{n_fixed:<4} "
              f"{n_open - len(open_passing):>4}/{n_open} failing")
        for o in failures + fixed_broken:
            print(f"  FAIL {o.path}: {o.signature} ({o.detail.splitlines()[0][:160] if o.detail else ''})")
        for o, e in open_passing:
            if args.mark_fixed:
                corpus_store.update_sidecar(e, status="fixed")
                print(f"  FIXED {o.path}: now passes, status set to fixed")
            else:
                print(f"  PASS  {o.path}: open entry now passes (flip its status: --mark-fixed)")
        bad += len(failures) + len(fixed_broken) + (0 if args.mark_fixed else len(open_passing))
    return 1 if bad else 0


def migrate_signature(entry: corpus_store.RegressEntry) -> str | None:
    """Re-sign an open entry with the one signature scheme: the stored signature is kept when
    the input still shows it, else replaced by the first one it shows now. What changed, or
    None."""
    if entry.status != "open":
        return None
    found = signatures.of_entry(corpus_store.load_target(entry.target),
                                corpus_store.read_input(entry.path) or b"")
    if not found or entry.signature in [sig for _, sig, _ in found]:
        return None
    old, (_, new, _) = entry.signature, found[0]
    corpus_store.update_sidecar(entry, signature=new, previous_signature=old)
    return f"{old} -> {new}"


def repair_orphan(entry: corpus_store.RegressEntry) -> str:
    """Write the sidecar of an orphan: replayed now, it is filed under the signature it shows
    (status open), or as fixed when it passes (it failed when it was filed)."""
    data = corpus_store.read_input(entry.path) or b""
    found = signatures.of_entry(corpus_store.load_target(entry.target), data)
    kind, signature, detail = found[0] if found else (
        "unreproducible", f"orphan:{entry.path.name[:12]}", "passes now; its filing was interrupted")
    meta = {"target": entry.target, "sha1": corpus_store.sha1(data), "signature": signature,
            "kind": kind, kind: detail, "status": "open" if found else "fixed",
            "first_seen": corpus_store.now(), "note": "sidecar written by urlwb replay --repair"}
    corpus_store.write_sidecar(entry.path, meta)
    return f"{meta['status']} {signature}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2:])
    else:
        sys.exit("usage: python -m urlwb.fuzzing.replay --child TARGET LISTFILE START [COVERAGE_FILE]")
