"""Child processes that belong to the workbench: none outlives it, however it dies.

Every long-running child (libFuzzer and its ``-fork`` workers, merges, minimizers, replays) is
started by :func:`popen`, which

1. starts it in a process group of its own (so that it and everything it starts can be killed as
   one: libFuzzer's fork workers are its children, in its group);
2. asks the kernel to SIGKILL it when the workbench process dies (``prctl(PR_SET_PDEATHSIG)``,
   Linux), which holds even for a SIGKILL of the workbench, but reaches the direct child only;
3. tells the *reaper* the new group. The reaper is one small process per workbench process,
   started on first use in a session of its own, that reads process-group ids on a pipe from the
   workbench; when that pipe ends (the workbench exited or was killed, by any signal), it
   SIGKILLs every group it was told of and not told is over, then exits. That reaches the
   grandchildren the parent-death signal cannot.

:func:`run` is ``subprocess.run`` over :func:`popen`, with the same timeout behaviour, except
that a timeout kills the child's whole group.

A child that runs foreign code (another project's: an adapter, a release under test, a fuzzing
harness) is started with ``sandbox=Limits`` (:mod:`urlwb.sandbox`): in a network namespace of
its own and under resource caps, set in the child before ``exec`` after the parent-death signal;
:func:`release` also kills what is left in its cgroup. ``proc.sandbox`` is the
:class:`urlwb.sandbox.Prepared` it ran under (None when unconfined), for :func:`urlwb.sandbox.explain`.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import signal
import subprocess
import sys
import threading

from urlwb import sandbox as sandboxing

PR_SET_PDEATHSIG = 1

#: The reaper: reads "+PGID" / "-PGID" lines; at end of input, kills the groups still listed.
REAPER = r"""
import os, signal, sys
groups = set()
for line in sys.stdin:
    line = line.strip()
    if line[:1] == "+":
        groups.add(int(line[1:]))
    elif line[:1] == "-":
        groups.discard(int(line[1:]))
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
"""

_lock = threading.Lock()
_reaper: subprocess.Popen | None = None
_libc = None


def _set_parent_death_signal() -> None:
    """In the child, before exec: die with the parent (Linux; elsewhere the reaper suffices)."""
    if _libc is not None:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _load_libc() -> None:
    global _libc
    if _libc is None and sys.platform.startswith("linux"):
        try:
            _libc = ctypes.CDLL(None, use_errno=True)
        except OSError:  # pragma: no cover - no libc to call: the reaper still works
            _libc = None


def _tell_reaper(line: str) -> None:
    global _reaper
    with _lock:
        if _reaper is None or _reaper.poll() is not None:
            _reaper = subprocess.Popen([sys.executable, "-c", REAPER], stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True, text=True, close_fds=True)
        try:
            _reaper.stdin.write(line + "\n")
            _reaper.stdin.flush()
        except (BrokenPipeError, ValueError):  # pragma: no cover - the reaper died: start anew
            _reaper = None


def popen(cmd, *, sandbox: sandboxing.Limits | None = None, netns: str | None = None,
          **kwargs) -> subprocess.Popen:
    """``subprocess.Popen`` for a child that dies with the workbench (see the module docstring),
    confined under ``sandbox`` when given (foreign code: :mod:`urlwb.sandbox`); ``netns``: the
    network namespace it joins (``/proc/PID/ns/net``) instead of one of its own or the host's.

    Must be called from a thread that lives as long as the child (the parent-death signal fires
    when the *thread* that started the child ends): the main thread, or the thread that waits.
    """
    _load_libc()
    kwargs.setdefault("close_fds", True)
    prepared = None
    preexec = _set_parent_death_signal
    if netns is not None and sandbox is None:
        def preexec():
            _set_parent_death_signal()
            sandboxing.join_netns(netns)
    if netns is not None and sandbox is not None:
        sandbox = dataclasses.replace(sandbox, netns=netns)
    if sandbox is not None:
        prepared = sandboxing.prepare(list(cmd), kwargs.get("env"), sandbox)
        cmd, kwargs["env"] = prepared.command, prepared.env

        def preexec():
            _set_parent_death_signal()
            prepared.confine()
    try:
        proc = subprocess.Popen(cmd, start_new_session=True, preexec_fn=preexec, **kwargs)
    except BaseException:
        if prepared is not None:
            prepared.cleanup()
        raise
    proc.sandbox = prepared
    _tell_reaper(f"+{proc.pid}")
    return proc


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group (its workers too), then reap the child."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def release(proc: subprocess.Popen) -> None:
    """The child is done: kill what it left in its group, and tell the reaper to forget it."""
    kill_group(proc)
    _tell_reaper(f"-{proc.pid}")
    if getattr(proc, "sandbox", None) is not None:
        proc.sandbox.cleanup()


def run(cmd, *, timeout: float | None = None, input=None, check: bool = False,
        capture_output: bool = False, **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run`` over :func:`popen`: a timeout (``subprocess.TimeoutExpired``, as
    ``subprocess.run`` raises) or an interrupt kills the child's whole group."""
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    proc = popen(cmd, **kwargs)
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except BaseException:
        release(proc)
        raise
    release(proc)
    if check and proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, out, err)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def jobs_limit() -> int:
    """The most libFuzzer workers one run may ask for: four per core."""
    return 4 * (os.cpu_count() or 1)


def read_lines(stream, q) -> None:
    """Put each line of a child's ``stream`` on the queue ``q``, stripped, then None at its end:
    run in a thread, so that a reader can wait on the queue with a timeout."""
    for line in stream:
        q.put(line.strip())
    q.put(None)
