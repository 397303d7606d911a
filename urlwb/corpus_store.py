"""The regression corpus: seeds, findings and their sidecars, on disk.

Layout (committed to git)::

    corpus/<target>/seed/<name>              inputs generated from WPT (scripts/gen_seeds.py)
    corpus/<target>/regress/<sha1>           a minimized input that once failed
    corpus/<target>/regress/<sha1>.json      its sidecar: target, sha1, signature, kind,
                                             <kind>: detail, first_seen, status, note, ...

and, outside git, the working corpus the fuzzers grow: ``.urlwb/corpus/<target>/``.

Every write is atomic (a temporary file in the same folder, then ``os.replace``): the input is
written before its sidecar, so a process killed at any moment leaves either nothing, or a complete
input without a sidecar (an *orphan*, listed by ``iter_regress`` and completed by the next
``record_finding`` of the same input), or a complete entry. Nothing is ever half written.

``URLWB_CORPUS`` and ``URLWB_WORKDIR`` override the corpus root and the working folder (tests use
them to work in a temporary folder).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import fcntl
import hashlib
import importlib.util
import json
import os
import pathlib
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from types import ModuleType

from urlwb.errors import UsageError, WriteError

ROOT = pathlib.Path(__file__).resolve().parent.parent
FUZZERS_DIR = ROOT / "fuzzers"

#: The engine's fuzz targets, one an area, and ``reference`` (the two parsers against each other), each in ``fuzzers/fuzz_<name>.py``.
CORE_TARGETS = (
    "percent", "encodings", "ipv4", "ipv6", "host", "idna", "public_suffix",
    "urlencoded", "url", "setters", "search_params", "reference",
)

STATUSES = ("open", "fixed")
KINDS = ("invariant", "exception", "timeout", "oom", "unreproducible")
REQUIRED_KEYS = ("target", "signature", "kind", "first_seen", "status")


class CorpusError(UsageError):
    """A corpus folder or sidecar that cannot be used; one line, exit status 2 from ``urlwb``."""


def _discover_targets() -> dict[str, str]:
    found = {p.stem[len("fuzz_"):]: str(p.relative_to(ROOT)) for p in FUZZERS_DIR.glob("fuzz_*.py")}
    return dict(sorted(found.items()))


#: target name -> module path (relative to the repository root), e.g. "url" -> "fuzzers/fuzz_url.py".
TARGETS: dict[str, str] = _discover_targets()


def _folder_from(variable: str, default: pathlib.Path) -> pathlib.Path:
    path = pathlib.Path(os.environ.get(variable) or default)
    if path.exists() and not path.is_dir():
        raise CorpusError(f"{variable}={path}: not a folder")
    return path


def corpus_root() -> pathlib.Path:
    return _folder_from("URLWB_CORPUS", ROOT / "corpus")


def work_root() -> pathlib.Path:
    return _folder_from("URLWB_WORKDIR", ROOT / ".urlwb")


def seed_dir(target: str) -> pathlib.Path:
    return corpus_root() / target / "seed"


def distilled_dir(target: str) -> pathlib.Path:
    """What the fuzzers learned, committed: a coverage-minimal, size-capped set of working-corpus
    inputs that reach what the seeds do not (``urlwb merge``)."""
    return corpus_root() / target / "distilled"


def committed_dirs(target: str) -> list[pathlib.Path]:
    """The committed corpus folders of ``target`` that exist: seeds, then distilled inputs."""
    return [d for d in (seed_dir(target), distilled_dir(target)) if d.is_dir()]


def regress_dir(target: str) -> pathlib.Path:
    return corpus_root() / target / "regress"


def work_path(target: str) -> pathlib.Path:
    """Where the working corpus of ``target`` is (outside git): the one spelling of that path.
    It may not exist yet (:func:`work_dir` makes it)."""
    return work_root() / "corpus" / target


def work_dir(target: str) -> pathlib.Path:
    """The working corpus of ``target`` (outside git), created on demand."""
    path = work_path(target)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot make the working corpus {path}: {exc.strerror or exc}") from None
    return path


def check_target(name: str) -> str:
    """``name`` if it is a known target, else a one-line CorpusError naming the known ones."""
    if name not in TARGETS:
        raise CorpusError(f"unknown target {name!r} (known: {', '.join(TARGETS)})")
    return name


def resolve_targets(names: list[str] | str | None) -> list[str]:
    """``None``/"all"/[] -> every target; otherwise each name checked."""
    if names is None or names == "all" or names == [] or names == ["all"]:
        return list(TARGETS)
    if isinstance(names, str):
        names = [names]
    return [check_target(n) for n in names]


def require_corpus(target: str) -> pathlib.Path:
    """The seed folder of ``target``; a one-line CorpusError if it is missing or unreadable."""
    folder = seed_dir(check_target(target))
    if not folder.is_dir():
        raise CorpusError(f"{folder}: missing seed corpus for target {target} "
                          f"(python scripts/gen_seeds.py {target})")
    if not os.access(folder, os.R_OK | os.X_OK):
        raise CorpusError(f"{folder}: seed corpus is not readable")
    return folder


_loaded: dict[str, ModuleType] = {}


def load_target(name: str) -> ModuleType:
    """Import ``fuzzers/fuzz_<name>.py`` (not as ``__main__``: no atheris instrumentation)."""
    check_target(name)
    if name not in _loaded:
        path = ROOT / TARGETS[name]
        spec = importlib.util.spec_from_file_location(f"fuzzers.fuzz_{name}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _loaded[name] = module
    return _loaded[name]


def sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _umask() -> int:
    """The process's umask now: read from /proc (Linux 4.7+), which changes nothing; else set and
    set back (os.umask is the only way to ask, and not safe beside other threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new file gets under the process's umask now (0644 under the usual 022), as any
    file a program writes would: mkstemp's temporary files are 0600, which the rename would
    otherwise keep."""
    return 0o666 & ~_umask()


def atomic_write(path: pathlib.Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder, fsync, and
    ``os.replace``: afterwards the file is whole or as it was. A write that cannot happen (a
    full disk, a read-only folder) is a WriteError naming the file, and leaves nothing behind."""
    path = pathlib.Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), file_mode())
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
        _fsync_folder(path.parent)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _fsync_folder(folder: pathlib.Path) -> None:
    """The rename itself reaches the disk (POSIX: fsync the folder's descriptor)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclasses.dataclass
class RegressEntry:
    target: str
    path: pathlib.Path          # the input
    sidecar: dict | None        # None for an orphan (input written, sidecar not yet)

    @property
    def status(self) -> str | None:
        return self.sidecar["status"] if self.sidecar else None

    @property
    def signature(self) -> str | None:
        return self.sidecar["signature"] if self.sidecar else None


def load_sidecar(path: pathlib.Path) -> dict:
    """Read and validate a sidecar; a CorpusError (one line) names the file and what is wrong."""
    path = pathlib.Path(path)
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CorpusError(f"{path}: unreadable sidecar ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CorpusError(f"{path}: corrupt sidecar ({exc})") from None
    except RecursionError:
        raise CorpusError(f"{path}: corrupt sidecar (JSON nested too deep)") from None
    if not isinstance(meta, dict):
        raise CorpusError(f"{path}: corrupt sidecar (not a JSON object)")
    missing = [k for k in REQUIRED_KEYS if k not in meta]
    if missing:
        raise CorpusError(f"{path}: corrupt sidecar (missing {', '.join(missing)})")
    for key, allowed in (("status", STATUSES), ("kind", KINDS)):
        if not isinstance(meta[key], str) or meta[key] not in allowed:
            raise CorpusError(f"{path}: corrupt sidecar ({key} {meta[key]!r:.60} is not one of "
                              f"{', '.join(allowed)})")
    for key in ("target", "signature", "first_seen"):
        if not isinstance(meta[key], str):
            raise CorpusError(f"{path}: corrupt sidecar ({key} is not a string)")
    return meta


def iter_seeds(target: str) -> Iterator[pathlib.Path]:
    """The committed inputs of ``target`` (seeds, then distilled), each folder sorted; hidden
    and temporary files and folders skipped (an unreadable entry is yielded: its reader reports
    and skips it, nothing deletes it; a FIFO, socket or device is yielded too, and
    ``read_input`` refuses it without opening it)."""
    for folder in committed_dirs(target):
        for path in sorted(folder.iterdir()):
            if not path.name.startswith(".") and not path.is_dir():
                yield path


def iter_regress(target: str | None = None) -> Iterator[RegressEntry]:
    """Every regress entry (of one target, or all), sidecars validated (CorpusError if corrupt)."""
    if target:
        targets = [target]
    else:
        root = corpus_root()
        targets = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for t in targets:
        folder = regress_dir(t)
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.name.startswith(".") or path.suffix == ".json" or not path.is_file():
                continue
            side = sidecar_path(path)
            yield RegressEntry(t, path, load_sidecar(side) if side.exists() else None)


def readable(path: pathlib.Path) -> bool:
    """Whether ``path`` is a regular file that can be read; if not, a one-line warning says so
    (a FIFO is not: opening one would wait for a writer forever)."""
    path = pathlib.Path(path)
    if path.is_file() and os.access(path, os.R_OK):
        return True
    why = "a dangling link" if path.is_symlink() and not path.exists() else "not a readable file"
    print(f"urlwb: skipping unreadable {path} ({why})", file=sys.stderr)
    return False


def read_input(path: pathlib.Path) -> bytes | None:
    """The bytes of a corpus file, or None (with a one-line warning) if it cannot be read or
    is not a regular file (a FIFO, a socket, a device: never opened)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            print(f"urlwb: skipping {path} (not a regular file)", file=sys.stderr)
            return None
        return pathlib.Path(path).read_bytes()
    except OSError as exc:
        print(f"urlwb: skipping unreadable {path} ({exc.strerror or exc})", file=sys.stderr)
        return None


#: A fuzz target that cannot file a finding (a full disk, a folder it cannot write) says so in
#: one line starting with CANNOT_FILE and ends with this status by ``os._exit``: not an
#: exception, so that libFuzzer does not take the target's own exit for a crash of the code
#: under test and write a crash artifact of it (``urlwb fuzz`` answers the line, a WriteError).
CANNOT_FILE = "urlwb: cannot file a finding"
CANNOT_FILE_EXIT = 75   # EX_TEMPFAIL


def cannot_file(exc: Exception) -> None:
    """In a fuzz target: the one line, and the target's own exit (see :data:`CANNOT_FILE`)."""
    print(f"{CANNOT_FILE}: {exc}", file=sys.stderr, flush=True)
    os._exit(CANNOT_FILE_EXIT)


#: the corpus lock's file, in the corpus root (git ignores it)
LOCK_NAME = ".filing.lock"
_held = threading.local()


@contextlib.contextmanager
def filing():
    """One writer of findings at a time, across processes: an exclusive ``flock`` on the corpus
    root's :data:`LOCK_NAME`, held around the duplicate check and the write, by every path that
    files a finding (:func:`record_finding`: triage, growth, hunt, export-hypothesis; ssrf's
    ``regress.file``). Re-entrant in a thread; the kernel lets it go when the holder dies."""
    if getattr(_held, "depth", 0):
        _held.depth += 1
        try:
            yield
        finally:
            _held.depth -= 1
        return
    root = corpus_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock = open(root / LOCK_NAME, "a+")
    except OSError as exc:
        raise WriteError(f"cannot lock the corpus {root}: {exc.strerror or exc}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _held.depth = 1
        try:
            yield
        finally:
            _held.depth = 0
            fcntl.flock(lock, fcntl.LOCK_UN)


def record_finding(target: str, data: bytes, signature: str, kind: str, detail: str, *,
                   status: str = "open", extra: dict | None = None,
                   shape: Callable[..., dict] | None = None) -> pathlib.Path | None:
    """File a minimized failing input in ``corpus/<target>/regress/``; its path, or None if a
    finding with the same signature (or the same input) is already filed for ``target``.
    ``shape``: :func:`urlwb.findings.sidecar.shape`, which every filer passes so that the sidecar
    is in the one findings shape (passed in, not imported: the findings judge may need the
    oracles, and they need this module)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, not {status!r}")
    with filing():
        return _record_finding(target, data, signature, kind, detail, status, extra, shape)


def _record_finding(target, data, signature, kind, detail, status, extra, shape) -> pathlib.Path | None:
    digest = sha1(data)
    for entry in iter_regress(target):
        if entry.sidecar and (entry.signature == signature or entry.path.name == digest):
            return None
    path = regress_dir(target) / digest
    meta = {
        "target": target,
        "sha1": digest,
        "signature": signature,
        "kind": kind,
        kind: detail,
        "first_seen": now(),
        "status": status,
        "note": "",
    }
    meta.update(extra or {})
    if shape is not None:
        meta = shape(meta, data=data)
    if shape is not None and not isinstance(meta.get("verdict"), dict):   # no record without a verdict
        raise ValueError(f"{target}: a finding filed without a verdict ({signature})")
    atomic_write(path, data)
    write_sidecar(path, meta)
    return path


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def sidecar_path(path: pathlib.Path) -> pathlib.Path:
    return path.with_name(path.name + ".json")


def write_sidecar(path: pathlib.Path, meta: dict) -> None:
    """Atomically (re)write the sidecar of the regress input ``path``."""
    atomic_write(sidecar_path(path), (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def update_sidecar(entry: RegressEntry, **changes) -> None:
    """Change fields of an entry's sidecar (e.g. ``status="fixed"``, ``note=...``)."""
    if "status" in changes and changes["status"] not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}")
    if "verdict" in changes and not isinstance(changes["verdict"], dict):
        raise ValueError("a sidecar's verdict is an object: a record is never left without one")
    entry.sidecar = dict(entry.sidecar or {}, **changes)
    write_sidecar(entry.path, entry.sidecar)
