"""Child processes that belong to the workbench: none outlives it, however it dies.

Every long-running child (libFuzzer and its ``-fork`` workers, merges, minimizers, replays) is
started by :func:`popen`, which

1. starts it in a process group of its own (so that it and everything it starts can be killed as
   one: libFuzzer's fork workers are its children, in its group);
2. asks the kernel to SIGKILL it when the workbench process dies (``prctl(PR_SET_PDEATHSIG)``,
   Linux), which holds even for a SIGKILL of the workbench, but reaches the direct child only;
3. tells the *reaper* the new group, and its cgroup when it has one. The reaper is one small
   process per workbench process, started on first use in a session of its own, that reads
   process-group ids and cgroup folders on a pipe from the workbench and watches the workbench
   itself (a pidfd, ``pidfd_open(2)``; where there is none, its parent pid polled): when the
   workbench is gone (it exited or was killed, by any signal), it SIGKILLs every group it was
   told of and not told is over, then every process left in each cgroup (a grandchild that left
   its group by ``setsid`` is still there), removes the cgroups, and exits. It does not wait for
   the pipe to end: a forked child that holds the pipe's write end (``multiprocessing``) would
   keep it open forever. That reaches the grandchildren the parent-death signal cannot.

A child forked without ``exec`` (``multiprocessing``: growth's timers) gets the same: it calls
:func:`forked_child` first (a group of its own, the parent-death signal), and its parent
:func:`adopt` s it (the reaper is told) and :func:`disown` s it when it is done.

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

#: The reaper (argv: the workbench's pid): reads "+PGID" / "-PGID" and "cFOLDER" / "uFOLDER"
#: (a cgroup) lines; when the workbench is gone (its pidfd readable, or the parent pid changed)
#: or the input ends, kills the groups still listed, then what is left in each cgroup, and
#: removes the cgroups (and their parent folder, when that is left empty).
REAPER = r"""
import os, select, signal, sys, time
parent = int(sys.argv[1])
try:
    watch = [os.pidfd_open(parent)]
except (AttributeError, OSError):
    watch = []
if os.getppid() != parent:
    watch = None
groups, cgroups, pending = set(), set(), b""
ended = False
while watch is not None and not ended:
    ready = select.select([0] + watch, [], [], 0.5)[0]
    ended = os.getppid() != parent or any(fd != 0 for fd in ready)
    # what the workbench wrote before it went is read first (a child it told of just before)
    while select.select([0], [], [], 0)[0]:
        chunk = os.read(0, 65536)
        if not chunk:
            ended = True
            break
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            line = line.decode()
            kind, value = line[:1], line[1:]
            if kind == "+":
                groups.add(int(value))
            elif kind == "-":
                groups.discard(int(value))
            elif kind == "c":
                cgroups.add(value)
            elif kind == "u":
                cgroups.discard(value)
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
for folder in sorted(cgroups, key=len, reverse=True):
    for attempt in range(100):
        try:
            pids = open(os.path.join(folder, "cgroup.procs")).read().split()
        except OSError:
            break
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        try:
            os.rmdir(folder)
            break
        except OSError:
            time.sleep(0.02)
    try:
        os.rmdir(os.path.dirname(folder))
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
            _reaper = subprocess.Popen([sys.executable, "-c", REAPER, str(os.getpid())], stdin=subprocess.PIPE,
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
    if prepared is not None and prepared.cgroup is not None:
        _tell_reaper(f"c{prepared.cgroup}")
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
        if proc.sandbox.cgroup is not None:
            _tell_reaper(f"u{proc.sandbox.cgroup}")
        proc.sandbox.cleanup()


def forked_child(parent: int) -> None:
    """First thing in a child forked without exec (``multiprocessing``) by ``parent``: a process
    group of its own (the reaper kills it by that), the parent-death signal, and an exit now if
    the parent is already gone (it may have died before the signal was asked for)."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    _load_libc()
    _set_parent_death_signal()
    if os.getppid() != parent:
        os._exit(1)


def adopt(pid: int) -> None:
    """The parent's half of :func:`forked_child`: the child's group set from this side too (no
    race with the child's own call), and the reaper told."""
    try:
        os.setpgid(pid, pid)
    except OSError:   # the child did it first, or has already ended
        pass
    _tell_reaper(f"+{pid}")


def disown(pid: int) -> None:
    """An adopted child is done (killed and joined): the reaper forgets it."""
    _tell_reaper(f"-{pid}")


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


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def read_lines(stream, q) -> None:
    """Put each line of a child's ``stream`` on the queue ``q``, stripped, then None at its end:
    run in a thread, so that a reader can wait on the queue with a timeout."""
    for line in stream:
        q.put(line.strip())
    q.put(None)
