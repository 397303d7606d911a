"""What the two browser adapters share: the protocol loop (``docs/oracle-protocol.md``, answers in the
``api`` form), the JavaScript that a browser evaluates over a batch, and a browser process that
cannot outlive its adapter.

https://url.spec.whatwg.org/#dom-url-url

Standard library only: imported by ``chromium.py`` and ``firefox.py`` (run as ``{python}
chromium.py`` in this folder), and by their tests; the workbench itself never imports it.

Batching: a reader thread queues request lines as they arrive; the main loop takes every line that
is waiting (up to ``MAX_BATCH`` requests or ``MAX_BATCH_BYTES`` bytes of request lines), has the
browser evaluate them in one call, writes the answers and flushes, and repeats. While the browser works,
the reader keeps reading, so the supervisor's writer never waits on us.

The requests reach the browser as JSON text (ASCII, every non-ASCII code unit a ``\\uXXXX``
escape), parsed there by ``JSON.parse``: a lone surrogate arrives as a lone surrogate, and the
browser's ``URL`` constructor does the USV conversion itself (docs/oracle-protocol.md, "Where the USV
conversion happens"). The answers come back as one string of JSON made by ``JSON.stringify``,
whose non-ASCII characters the script escapes too, so that no transport sees anything but ASCII.
"""

from __future__ import annotations

import ctypes
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PROTOCOL = "urlwb-oracle/1"
#: Requests per call into the browser, and bytes of request lines per call (a 1 MB input goes
#: alone).
MAX_BATCH = 2000
MAX_BATCH_BYTES = 2_000_000
#: An error message the browser gives is cut to this length (Firefox's repeats the whole input).
MAX_ERROR = 300

#: The function the browser evaluates: a JSON array of [input, base] in, a JSON array of answers
#: out, one per request, in order. TypeError is the constructor's documented failure ("throw a
#: TypeError", https://url.spec.whatwg.org/#dom-url-url); anything else is a crash. The error's
#: realm may not be the script's (Marionette runs scripts in a sandbox), hence the test by name.
BATCH_FUNCTION = r"""
function urlwbBatch(requestsJSON) {
  const answers = [];
  for (const [input, base] of JSON.parse(requestsJSON)) {
    try {
      const u = base === null ? new URL(input) : new URL(input, base);
      answers.push({api: {href: u.href, protocol: u.protocol, username: u.username,
                          password: u.password, hostname: u.hostname, port: u.port,
                          pathname: u.pathname, search: u.search, hash: u.hash}});
    } catch (e) {
      const text = String(e && e.message).slice(0, %(max_error)d);
      if (e && e.name === "TypeError") answers.push({error: text});
      else answers.push({crash: String(e && e.name) + ": " + text});
    }
  }
  return JSON.stringify(answers).replace(/[\u007f-\uffff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
""" % {"max_error": MAX_ERROR}


def log(message: str) -> None:
    print(f"{os.path.basename(sys.argv[0])}: {message}", file=sys.stderr, flush=True)


# --- the protocol loop -------------------------------------------------------------------------

def serve(hello: dict, evaluate) -> None:
    """Write the hello line, then answer batches until standard input ends.

    ``evaluate(requests_json)`` runs ``urlwbBatch`` in the browser on the JSON text of a list of
    ``[input, base]`` and returns the list of answers (dicts without ``id``), one per request."""
    out = sys.stdout.buffer
    out.write(json.dumps({"hello": PROTOCOL, **hello}).encode("ascii") + b"\n")
    out.flush()
    lines: queue.Queue = queue.Queue()

    def read():
        for line in sys.stdin.buffer:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    ended = False
    while not ended:
        batch = [lines.get()]
        size = len(batch[0] or b"")
        while batch[-1] is not None and len(batch) < MAX_BATCH and size < MAX_BATCH_BYTES:
            try:
                batch.append(lines.get_nowait())
            except queue.Empty:
                break
            size += len(batch[-1] or b"")
        if batch[-1] is None:
            batch.pop()
            ended = True
        answers = answer(batch, evaluate)
        if answers:
            out.write(b"".join(json.dumps(a).encode("ascii") + b"\n" for a in answers))
            out.flush()


def answer(lines: list[bytes], evaluate) -> list[dict]:
    """The answers to a batch of request lines, each with its id."""
    ids, pairs, answers = [], [], []
    for line in lines:
        request = None
        try:
            request = json.loads(line)
            id_, input, base = request["id"], request["input"], request.get("base")
            if not isinstance(input, str) or not (base is None or isinstance(base, str)):
                raise TypeError("input and base must be strings")
        except (ValueError, KeyError, TypeError) as exc:
            # The supervisor never sends such a line; say so on stderr and answer what we can.
            log(f"bad request line {line[:200]!r}: {exc}")
            if isinstance(request, dict) and "id" in request:
                answers.append({"id": request["id"], "crash": f"bad request: {exc}"})
            continue
        ids.append(id_)
        pairs.append([input, base])
    if pairs:
        # ensure_ascii: lone surrogates travel as \udXXX escapes and JSON.parse restores them.
        results = evaluate(json.dumps(pairs))
        if len(results) != len(pairs):
            raise RuntimeError(f"{len(results)} answers from the browser for {len(pairs)} requests")
        answers += [{"id": id_, **result} for id_, result in zip(ids, results)]
    return answers


# --- the browser process -----------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def _die_with_parent(parent: int):
    def preexec():
        # The kernel sends SIGKILL to the browser when the adapter dies, however it dies
        # (prctl(2), PR_SET_PDEATHSIG); the browser's own child processes end when their IPC
        # channel to it closes.
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the adapter died before prctl took effect
            os._exit(1)
    return preexec


class Browser:
    """A browser started in a process group of its own, in a fresh profile folder, killed with
    its whole group (and the folder removed) by ``close``, by SIGTERM/SIGINT/SIGHUP to the adapter,
    and by the kernel when the adapter dies."""

    def __init__(self, kind: str, command: list[str], env: dict | None = None,
                 fds: dict[int, int] | None = None, profile_files: dict[str, str] | None = None):
        remove_stale_profiles(kind)
        self.profile = tempfile.mkdtemp(prefix=f"urlwb-{kind}-{os.getpid()}-")
        for name, text in (profile_files or {}).items():
            with open(os.path.join(self.profile, name), "w", encoding="utf-8") as f:
                f.write(text)
        command = [arg.replace("{profile}", self.profile) for arg in command]
        die_with_parent = _die_with_parent(os.getpid())

        def preexec():
            for target, source in (fds or {}).items():
                os.dup2(source, target)  # inheritable: the browser's fds 3 and 4 for the pipe
            die_with_parent()

        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, env={**os.environ, **(env or {})}, process_group=0,
                preexec_fn=preexec, pass_fds=tuple(fds or ()))
        except OSError:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.stderr_tail: list[bytes] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._on_signal)

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line])[-20:]

    def last_words(self) -> str:
        status = self.proc.poll()
        tail = b"".join(self.stderr_tail[-3:]).decode("utf-8", "replace").strip()
        return f"browser {'running' if status is None else f'exited ({status})'}: {tail[-500:]}"

    def _on_signal(self, signum, frame):
        self.close()
        os._exit(128 + signum)

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)


def remove_stale_profiles(kind: str) -> None:
    """Profile folders of adapters that were killed (SIGKILL leaves no chance to clean up): each
    folder's name holds its adapter's pid; a folder whose adapter is gone is removed."""
    prefix = f"urlwb-{kind}-"
    root = tempfile.gettempdir()
    for name in os.listdir(root):
        if not name.startswith(prefix):
            continue
        pid = name[len(prefix):].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


#: Each browser's executable: an environment variable that names it, else the first candidate
#: found (a path, or a command on PATH).
EXECUTABLES = {
    # Debian's binary first: /usr/bin/chromium is a launcher script that adds flags of its own.
    "chromium": ("URLWB_CHROMIUM", ["/usr/lib/chromium/chromium", "chromium", "chromium-browser",
                                    "google-chrome"]),
    "firefox": ("URLWB_FIREFOX", ["firefox-esr", "firefox"]),
}


def which(kind: str) -> str | None:
    """The executable of browser ``kind``, or None if it is not installed."""
    env_var, candidates = EXECUTABLES[kind]
    if os.environ.get(env_var):
        return os.environ[env_var]
    for c in candidates:
        path = shutil.which(c) if "/" not in c else (c if os.access(c, os.X_OK) else None)
        if path:
            return path
    return None


def find_executable(kind: str) -> str:
    """The executable of browser ``kind``; exits with a one-line reason if it is missing."""
    path = which(kind)
    if path is None:
        env_var, candidates = EXECUTABLES[kind]
        raise SystemExit(f"{kind} not found: none of {', '.join(candidates)} (or set {env_var})")
    return path


def deadline_passed(start: float, seconds: float) -> bool:
    return time.monotonic() - start > seconds
