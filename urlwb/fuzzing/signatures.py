"""Finding signatures: one name per bug, computed in one place.

Every failure the workbench files (a fuzz target's crash, a replayed regress entry, a property
or state machine's failure) is filed under a *signature*, and two failures with one signature
are one finding. Triage, replay, export-hypothesis and the regress sidecars all use
:func:`of_failure` or :func:`of_property`; ``tests/workbench/test_signatures.py`` checks that every stored
signature equals the one computed now.

A signature is

- ``invariant:<check_name>:<site>`` for an AssertionError raised in ``properties/invariants/``,
  ``properties/reference.py`` or ``properties/independent.py`` (the checks against other
  implementations, which would otherwise all sign as the ``fail`` helper's frame):
  the innermost public ``check_*`` function and a short hash of the failing line there (the
  ``fail(...)`` call), stable when other lines of the file move;
- ``exception:<Type>@<file>:<function>`` for any other exception: its type and the innermost
  engine frame (the innermost frame of all if the engine is not on the stack);
- ``timeout@<file>:<function>`` and ``oom@<file>:<function>`` for an input that runs past the
  time or memory limit: the innermost engine frame of the stack that faulthandler (or libFuzzer's
  Python hook) printed when it was stopped, the innermost frame of all without the engine;
- ``crash:<signal>`` for a process killed by a signal without a Python traceback;
- ``<property>:<ExceptionType>:<message shape>`` for a property record (its quoted values and
  numbers elided, so failures of one clause of one invariant share it);
- ``<class>[/<cause>]:engine~<parser>`` for a differential finding (:func:`of_differential`).

A fuzz target whose findings are not failures of its ``check`` alone (the differential files a
disagreement per parser; a property record names its property) defines ``signatures(data)``:
the (kind, signature, detail) of each finding the input shows now, most severe first.
:func:`of_entry` asks that hook where a target has one, else runs the check and signs its
traceback, so that triage, replay and the regression test sign an input the same way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pathlib
import re
import signal
import traceback
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parents[2]

_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+),? in (?P<func>\S+)\s*$')
_MARKERS = re.compile(r"^[\s^~]*$")
#: faulthandler's headers: "Current thread 0x... (most recent call first):", "Thread 0x... (most
#: recent call first):" (all threads) and "Stack (most recent call first):" (one thread, as
#: faulthandler.register(..., all_threads=False) and dump_traceback_later print it).
_DUMP_HEADER = re.compile(r"(?:(?:Current thread|Thread) 0x[0-9a-f]+|Stack) \(most recent call first\):")
#: Where the invariants live: the check_* functions shared by fuzzers and properties.
INVARIANT_MODULES = ("properties/invariants/", "properties/reference.py", "properties/independent.py")


@dataclasses.dataclass
class Frame:
    path: str        # relative to the repository root when inside it
    line: int
    func: str
    source: str = ""


def _relative(path: str) -> str:
    try:
        return str(pathlib.Path(path).resolve().relative_to(ROOT))
    except (ValueError, OSError):
        return path


def parse_traceback(text: str) -> tuple[list[Frame], str]:
    """The frames (outermost first) and the exception line(s) of the last Python traceback in
    ``text``; or, for a faulthandler dump, its frames (reordered outermost first) and ""."""
    if "Traceback (most recent call last):" in text:
        block = text.rsplit("Traceback (most recent call last):", 1)[1].splitlines()
        frames: list[Frame] = []
        i = 0
        while i < len(block):
            m = _FRAME.match(block[i])
            if m:
                frames.append(Frame(_relative(m["path"]), int(m["line"]), m["func"]))
                if i + 1 < len(block) and block[i + 1].startswith("    ") and not _FRAME.match(block[i + 1]):
                    frames[-1].source = block[i + 1].strip()
                    i += 1
                i += 1
                continue
            if block[i].strip() and not block[i].startswith(" ") and not _MARKERS.match(block[i]):
                return frames, "\n".join(block[i:]).strip()
            i += 1
        return frames, ""
    dump = _DUMP_HEADER.split(text)
    if len(dump) > 1:
        frames = []
        for line in dump[-1].splitlines():
            m = _FRAME.match(line)
            if m:
                frames.append(Frame(_relative(m["path"]), int(m["line"]), m["func"]))
            elif frames and line.strip():
                break   # the dump ended: what follows is other output
        return frames[::-1], ""
    return [], ""


def _innermost(frames: list[Frame], prefix: str) -> Frame | None:
    for frame in reversed(frames):
        if frame.path.startswith(prefix):
            return frame
    return None


def where(frames: list[Frame]) -> str:
    """``<file>:<function>`` of the innermost engine frame, else of the innermost frame."""
    frame = _innermost(frames, "engine/") or (frames[-1] if frames else None)
    return f"{frame.path}:{frame.func}" if frame else "?"


def of_failure(stderr: str, returncode: int | None, timed_out: bool = False,
               out_of_memory: bool = False) -> tuple[str, str, str]:
    """(kind, signature, detail) of a failed run of a target, from its stderr and exit status."""
    frames, exc = parse_traceback(stderr)
    if timed_out:
        return "timeout", f"timeout@{where(frames)}", "ran past the timeout"
    if out_of_memory or (not exc and "out-of-memory" in stderr and "libFuzzer" in stderr):
        return "oom", f"oom@{where(frames)}", "ran past the memory limit"
    if not exc:
        if returncode is not None and returncode < 0:
            try:
                name = signal.Signals(-returncode).name
            except ValueError:
                name = f"signal-{-returncode}"
            return "exception", f"crash:{name}", f"killed by {name}"
        tail = stderr.strip().splitlines()[-1:] or [f"exit status {returncode}"]
        return "exception", f"crash:exit-{returncode}", tail[0]
    exc_type = exc.split(":", 1)[0].strip()
    if exc_type.rsplit(".", 1)[-1] == "AssertionError":
        checks = [f for f in frames if f.path.startswith(INVARIANT_MODULES)]
        public = [f for f in checks if f.func.startswith("check_")]
        site = next((f for f in reversed(checks) if f.func != "fail"), None)
        if public and site:
            digest = hashlib.sha1(f"{site.func}:{site.source}".encode()).hexdigest()[:8]
            return "invariant", f"invariant:{public[-1].func}:{digest}", exc
    return "exception", f"exception:{exc_type.rsplit('.', 1)[-1]}@{where(frames)}", exc


def of_property(prop: str, exc_type: str, detail: str) -> str:
    """Property, exception type and the shape of the message (quoted values and numbers
    elided): failures of one clause of one invariant share it, whatever their inputs."""
    shape = re.sub(r"(?<!\w)'(?:[^'\\]|\\.)*'|(?<!\w)\"(?:[^\"\\]|\\.)*\"", "…", detail)
    shape = re.sub(r"\d+", "N", shape.split(":", 1)[-1]).strip()
    return f"{prop}:{exc_type}:{shape[:120]}"


def of_differential(cls: str, cause: str | None, parser: str) -> str:
    """A disagreement of class ``cls`` (urlwb.differential.classify) between the engine and ``parser``, with
    the ingredient that caused it when the class says only what happened (a different host, a
    rejection): one backslash confusion and one userinfo confusion of one parser are two bugs."""
    return f"{cls}:engine~{parser}" if cause is None else f"{cls}/{cause}:engine~{parser}"


def of_check(check: Callable[[bytes], None], data: bytes) -> tuple[str, str, str] | None:
    """Run a target's ``check`` on ``data`` in this process: (kind, signature, detail) of its
    failure, signed from its traceback as a replay's child would be, or None when it passes."""
    try:
        check(data)
    except Exception:  # noqa: BLE001 - any failure of the check is what is being signed
        return of_failure(traceback.format_exc(), 1)
    return None


def of_property_replay(replay: Callable[[bytes], None], name: str, data: bytes) -> list[tuple[str, str, str]]:
    """A property record (``properties/replay.py``) replayed in this process: the
    (kind, signature, detail) of its failure under its property's name (:func:`of_property`), an
    AssertionError an invariant and anything else an exception; [] when the property holds.
    Here, not in the fuzz target, so that no fuzz target catches more than ``engine.Failure``."""
    try:
        replay(data)
    except Exception as exc:  # noqa: BLE001 - any failure of the property is what is signed
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        kind = "invariant" if isinstance(exc, AssertionError) else "exception"
        return [(kind, of_property(name, type(exc).__name__, detail), detail)]
    return []


def of_entry(target_module, data: bytes) -> list[tuple[str, str, str]]:
    """Every finding ``data`` shows now through a fuzz target's module (loaded by
    ``corpus_store.load_target``), most severe first; [] when it passes."""
    hook = getattr(target_module, "signatures", None)
    if hook is not None:
        return list(hook(data))
    found = of_check(target_module.check, data)
    return [found] if found else []
