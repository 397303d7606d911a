"""Other people's code, confined: every foreign process starts with no network and bounded
resources.

A *foreign* process runs code the workbench did not write: a shipped adapter (its parser's
package), a release under test (``PARSER@VERSION``), a user's adapter or validator
(``--oracle NAME=CMD``), a browser, a guided fuzzer's harness (``urlwb hunt``), a parser under a
coverage tool (``urlwb reach``). :func:`urlwb.children.popen` starts such a process with
``sandbox=Limits(...)``; the engine and the in-process Python oracles are not foreign processes
and run as they always did. The confinement, in the child after ``fork`` and before ``exec``:

- **No network.** ``unshare(CLONE_NEWNET)`` (unshare(2)): the process and everything it starts
  get a network namespace of their own, whose only interface, ``lo``, is down. A connect
  anywhere (the host's loopback included) fails with ENETUNREACH; a parser needs no network to
  parse. An adapter that needs a loopback of its own (Firefox's Marionette listens on
  127.0.0.1) is declared ``loopback = true`` (``docs/oracle-protocol.md``): its namespace's
  ``lo`` is brought up (``SIOCSIFFLAGS``, netdevice(7)); it still reaches nothing outside its
  namespace. Creating a namespace needs CAP_SYS_ADMIN: where the kernel refuses (not root, a
  container without the capability), the workbench says so once per process, in one line on
  standard error, and runs foreign code with the network.
- **Memory.** ``RLIMIT_DATA`` (setrlimit(2); since Linux 4.7 it counts every private writable
  mapping, ``mmap`` included, not only the ``brk`` heap), not ``RLIMIT_AS``: measured on this
  project's adapters, a 2 GiB ``RLIMIT_AS`` stops the JVM at start ("Could not allocate compressed
  class space: 1073741824 bytes", it reserves address space it never uses) and both browsers
  (Chromium's and Firefox's sandboxes reserve terabytes), while 2 GiB of ``RLIMIT_DATA`` starts
  all of them and stops an allocation bomb in each runtime (Go "fatal error: out of memory",
  Node "Array buffer allocation failed", Python ``MemoryError``, measured). Where the runtime has
  its own flag it is given too, below the cap so that the runtime's own error comes first: the
  JVM's ``-Xmx`` (when the command's program is ``java`` and names no ``-Xmx`` of its own) and
  Node's ``--max-old-space-size`` (through ``NODE_OPTIONS``, which reaches every Node process
  the adapter starts), each three quarters of the cap.
- **CPU time.** ``RLIMIT_CPU``: SIGXCPU at the cap, SIGKILL five seconds of CPU later. The cap is
  per process and cumulative; a per-input hang is the supervisor's deadline, not this.
- **File size.** ``RLIMIT_FSIZE``: a write past the cap gets SIGXFSZ. ``RLIMIT_CORE`` 0: no core
  files.
- **Processes.** ``RLIMIT_NPROC`` does not bind root (the kernel lets CAP_SYS_RESOURCE and
  CAP_SYS_ADMIN past it, and counts every process of the user, not the child's), so the cap is a
  pids cgroup of the child's own (``pids.max``, Documentation/admin-guide/cgroup-v2.rst "PID";
  v1 or a v2 hierarchy whose ``cgroup.subtree_control`` delegates ``pids``), joined before
  ``exec``; every thread counts. When the child is released, whatever is left in its cgroup
  (a process that left its process group) is killed and the cgroup removed. Without a writable
  pids cgroup: ``RLIMIT_NPROC`` when not root; as root, no process cap (said in the one line).

Hitting a cap is a finding about the release: :func:`explain` names the cap from the exit
status (SIGXCPU, SIGXFSZ), the CPU time the process used, the pids cgroup's ``max`` events, or
what the runtime said on its standard error when an allocation failed; the supervisor puts it
in the crash record ("memory cap 2 GiB hit (RLIMIT_DATA)...") and restarts the adapter.

Settings (read at each start, so that a test can change them): ``URLWB_SANDBOX=off`` runs
foreign code unconfined (said once); ``URLWB_SANDBOX_MEMORY`` (bytes, or with a K/M/G suffix),
``URLWB_SANDBOX_CPU`` (seconds), ``URLWB_SANDBOX_FILE_SIZE``, ``URLWB_SANDBOX_PROCESSES``
override the defaults (:data:`DEFAULTS`).
"""

from __future__ import annotations

import atexit
import ctypes
import dataclasses
import errno
import fcntl
import itertools
import os
import re
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

GiB = 1 << 30
MiB = 1 << 20
CLONE_NEWNET = 0x40000000
SIOCSIFFLAGS = 0x8914
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40
#: SIGXCPU at the CPU cap, SIGKILL this many CPU seconds later (the hard limit)
CPU_GRACE = 5


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one foreign process may use (module docstring): bytes of memory (RLIMIT_DATA),
    seconds of CPU (RLIMIT_CPU), bytes of one file written (RLIMIT_FSIZE), processes and threads
    (a pids cgroup); ``loopback``: its network namespace's ``lo`` up."""

    memory: int = 2 * GiB
    cpu: int = 3600
    file_size: int = 1 * GiB
    processes: int = 512
    loopback: bool = False
    #: a network namespace to join (``/proc/PID/ns/net``, setns(2)) instead of one of its own:
    #: ``urlwb ssrf``'s HTTP clients reach the sealed network of :mod:`urlwb.ssrf.observe.network`
    netns: str | None = None


#: the defaults: 2 GiB is four times what the hungriest shipped adapter (a JVM) takes on a 1 MB
#: input; an hour of CPU per process is more than a diff of 100,000 inputs gives the slowest one
#: (a long campaign restarts an adapter that used its hour up: the budget is per process)
DEFAULTS = Limits()

_ENV = {"memory": "URLWB_SANDBOX_MEMORY", "cpu": "URLWB_SANDBOX_CPU",
        "file_size": "URLWB_SANDBOX_FILE_SIZE", "processes": "URLWB_SANDBOX_PROCESSES"}
_SUFFIX = {"": 1, "K": 1 << 10, "M": MiB, "G": GiB}


def _amount(name: str, text: str) -> int:
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.I)
    if not m or int(m[1]) < 1:
        raise ValueError(f"{name}={text!r}: a positive whole number (K, M or G suffix allowed)")
    return int(m[1]) * _SUFFIX[m[2].upper()]


def enabled() -> bool:
    """False when ``URLWB_SANDBOX=off`` (or 0, no, false)."""
    return os.environ.get("URLWB_SANDBOX", "on").strip().lower() not in ("off", "0", "no", "false")


def limits(loopback: bool = False) -> Limits | None:
    """The limits for a foreign process now (the defaults, overridden by the environment), or
    None when the sandbox is off. ValueError (one line) for a setting that is not a number."""
    if not enabled():
        _say_once("off", "urlwb: URLWB_SANDBOX=off: foreign adapters run with the network and "
                         "no resource limits")
        return None
    values = {}
    for field, var in _ENV.items():
        if os.environ.get(var):
            values[field] = _amount(var, os.environ[var])
    return dataclasses.replace(DEFAULTS, loopback=loopback, **values)


def size(n: int) -> str:
    """2147483648 -> "2 GiB"."""
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} bytes"


# --- what this machine allows (probed once per process) ---------------------------------------

_lock = threading.Lock()
_said: set[str] = set()
_libc = None
_probed: dict[str, object] = {}


def _say_once(key: str, line: str) -> None:
    with _lock:
        if key in _said:
            return
        _said.add(key)
    print(line, file=sys.stderr, flush=True)


def _load_libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _probe_namespace() -> str | None:
    """None when a child can get a network namespace of its own, else why not (one phrase)."""
    if not sys.platform.startswith("linux"):
        return f"no network namespaces on {sys.platform}"
    try:
        libc = _load_libc()
    except OSError as exc:  # pragma: no cover - no libc to call
        return f"no libc to call unshare ({exc})"

    def attempt():
        if libc.unshare(CLONE_NEWNET) != 0:
            os._exit(100 + min(ctypes.get_errno(), 150))

    program = "/bin/true" if os.path.exists("/bin/true") else sys.executable
    try:
        status = subprocess.run([program] + ([] if program == "/bin/true" else ["-c", ""]),
                                preexec_fn=attempt, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                timeout=30).returncode
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unshare could not be tried ({exc})"
    if status == 0:
        return None
    code = status - 100
    name = errno.errorcode.get(code, str(code))
    why = " (needs CAP_SYS_ADMIN: not root?)" if code == errno.EPERM else ""
    return f"unshare(CLONE_NEWNET) refused: {name}{why}"


def _own_cgroup(controller: str) -> tuple[str, str] | None:
    """(hierarchy mount point, own path) of the cgroup v1 hierarchy of ``controller``, else of
    the v2 one; None when neither is mounted."""
    try:
        lines = open("/proc/self/cgroup", encoding="utf-8").read().splitlines()
        mounts = open("/proc/self/mounts", encoding="utf-8").read().splitlines()
    except OSError:
        return None
    v1 = v2 = None
    for m in mounts:
        parts = m.split()
        if len(parts) >= 4 and parts[2] == "cgroup" and controller in parts[3].split(","):
            v1 = parts[1]
        elif len(parts) >= 3 and parts[2] == "cgroup2" and v2 is None:
            v2 = parts[1]
    for line in lines:
        hid, ctrls, path = line.split(":", 2)
        if v1 and controller in ctrls.split(","):
            return v1, path
    for line in lines:
        hid, ctrls, path = line.split(":", 2)
        if v2 and hid == "0":
            try:
                delegated = open(os.path.join(v2 + path, "cgroup.subtree_control")).read().split()
            except OSError:
                return None
            return (v2, path) if controller in delegated else None
    return None


def _probe_pids() -> tuple[str | None, str | None]:
    """(a folder under which this process may make pids cgroups, None) or (None, why not)."""
    found = _own_cgroup("pids")
    if found is None:
        return None, "no pids cgroup controller mounted"
    folder = os.path.join(found[0] + found[1], f"urlwb-{os.getpid()}")
    try:
        os.makedirs(folder, exist_ok=True)
        probe = os.path.join(folder, "probe")
        os.mkdir(probe)
        with open(os.path.join(probe, "pids.max"), "w") as f:
            f.write("16")
        os.rmdir(probe)
    except OSError as exc:
        try:
            os.rmdir(folder)
        except OSError:
            pass
        return None, f"no writable pids cgroup ({exc.strerror or exc})"
    _remove_stale(os.path.dirname(folder))
    return folder, None


def _remove_stale(parent: str) -> None:
    """The cgroup folders of workbench processes that are gone (a SIGKILL leaves them)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        m = re.fullmatch(r"urlwb-(\d+)", name)
        if not m or int(m[1]) == os.getpid() or os.path.exists(f"/proc/{m[1]}"):
            continue
        top = os.path.join(parent, name)
        for sub in os.listdir(top) if os.path.isdir(top) else []:
            if os.path.isdir(os.path.join(top, sub)):
                _kill_cgroup(os.path.join(top, sub))
        try:
            os.rmdir(top)
        except OSError:
            pass


def _remove_own(folder: str) -> None:
    """At exit: this process's cgroup folder (its children's are removed as each is released)."""
    for sub in os.listdir(folder) if os.path.isdir(folder) else []:
        if os.path.isdir(os.path.join(folder, sub)):
            _kill_cgroup(os.path.join(folder, sub))
    try:
        os.rmdir(folder)
    except OSError:
        pass


def _machine() -> dict:
    """What this machine allows, probed on first use (thread-safe): namespace (None or why
    not), pids folder (or None) and why not."""
    with _lock:
        if not _probed:
            _probed["namespace"] = _probe_namespace()
            _probed["pids"], _probed["pids_why"] = _probe_pids()
            if _probed["pids"] is not None:
                atexit.register(_remove_own, _probed["pids"])
    return _probed


def namespace_refused() -> str | None:
    """None when a child may get a network namespace of its own here, else why not (probed once)."""
    return _machine()["namespace"]


def _announce(lim: Limits) -> None:
    """The one line per process saying what is missing, when something is."""
    m = _machine()
    missing = []
    if m["namespace"]:
        missing.append(f"WITH the network ({m['namespace']})")
    if m["pids"] is None and os.geteuid() == 0:
        missing.append(f"with no process cap ({m['pids_why']}; RLIMIT_NPROC does not bind root)")
    if missing:
        _say_once("missing", "urlwb: foreign adapters run " + " and ".join(missing))


def describe(lim: Limits | None = None) -> str:
    """One line: how foreign processes run here (for reports)."""
    lim = lim if lim is not None else limits()
    if lim is None:
        return "foreign adapters run unconfined (URLWB_SANDBOX=off)"
    m = _machine()
    net = ("without network (a network namespace of their own, no interface up)" if not m["namespace"]
           else f"WITH the network ({m['namespace']})")
    procs = (f"{lim.processes} processes (pids cgroup)" if m["pids"] else
             f"{lim.processes} processes (RLIMIT_NPROC)" if os.geteuid() != 0 else "no process cap")
    return (f"foreign adapters run {net}; memory {size(lim.memory)} (RLIMIT_DATA; JVM -Xmx, "
            f"Node --max-old-space-size), CPU {lim.cpu} s (RLIMIT_CPU), files {size(lim.file_size)} "
            f"(RLIMIT_FSIZE), {procs}")


# --- one child ---------------------------------------------------------------------------------

_serial = itertools.count(1)


@dataclasses.dataclass
class Prepared:
    """A foreign process about to start: its command and environment (with the runtime's own
    flags), what runs in the child before ``exec`` (:meth:`confine`), and its cgroup."""

    command: list[str]
    env: dict | None
    limits: Limits
    cgroup: str | None = None
    network: bool = False
    #: the cgroup's ``cgroup.procs``, and the ``struct ifreq`` that brings ``lo`` up
    procs: str = ""
    ifreq: bytes = b""

    def confine(self) -> None:
        """In the child, after fork, before exec: join the cgroup, leave the network, set the
        limits. Raises OSError when a step the machine was found to allow fails (the child does
        not start: confinement fails closed)."""
        if self.cgroup is not None:
            fd = os.open(self.procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        if self.limits.netns is not None:
            join_netns(self.limits.netns)
        elif self.network:
            if _libc.unshare(CLONE_NEWNET) != 0:
                e = ctypes.get_errno()
                raise OSError(e, f"unshare(CLONE_NEWNET): {os.strerror(e)}")
            if self.limits.loopback:
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                try:
                    fcntl.ioctl(s, SIOCSIFFLAGS, self.ifreq)
                finally:
                    s.close()
        lim = self.limits
        resource.setrlimit(resource.RLIMIT_DATA, (lim.memory, lim.memory))
        resource.setrlimit(resource.RLIMIT_CPU, (lim.cpu, lim.cpu + CPU_GRACE))
        resource.setrlimit(resource.RLIMIT_FSIZE, (lim.file_size, lim.file_size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.cgroup is None and os.geteuid() != 0:
            resource.setrlimit(resource.RLIMIT_NPROC, (lim.processes, lim.processes))

    def cleanup(self) -> None:
        """The child is done: what is left in its cgroup is killed, the cgroup removed."""
        if self.cgroup is not None:
            _kill_cgroup(self.cgroup)
            self.cgroup = None

    def pids_max_hit(self) -> bool:
        """The cgroup refused a fork or a thread at its ``pids.max``."""
        if self.cgroup is None:
            return False
        try:
            text = open(os.path.join(self.cgroup, "pids.events"), encoding="ascii").read()
        except OSError:
            return False
        m = re.search(r"^max (\d+)", text, re.M)
        return bool(m and int(m[1]))


def join_netns(path: str) -> None:
    """Join the network namespace at ``path`` (setns(2)); OSError when the kernel refuses."""
    libc = _load_libc()
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, f"setns({path}): {os.strerror(e)}")
    finally:
        os.close(fd)


def prepare(command: list[str], env: dict | None, lim: Limits) -> Prepared:
    """The command, environment and confinement of one foreign process under ``lim``."""
    m = _machine()
    _announce(lim)
    command = list(command)
    heap_mib = max(64, lim.memory * 3 // 4 // MiB)
    if os.path.basename(command[0]) == "java" and not any(a.startswith("-Xmx") for a in command[1:]):
        command.insert(1, f"-Xmx{heap_mib}m")
    env = dict(os.environ if env is None else env)
    node = env.get("NODE_OPTIONS", "")
    if "--max-old-space-size" not in node:
        env["NODE_OPTIONS"] = f"{node} --max-old-space-size={heap_mib}".strip()
    prepared = Prepared(command, env, lim, network=m["namespace"] is None)
    if m["pids"] is not None:
        folder = os.path.join(m["pids"], str(next(_serial)))
        try:
            os.mkdir(folder)
            with open(os.path.join(folder, "pids.max"), "w") as f:
                f.write(str(lim.processes))
            prepared.cgroup = folder
            prepared.procs = os.path.join(folder, "cgroup.procs")
        except OSError as exc:
            _say_once("cgroup", f"urlwb: a pids cgroup could not be made ({exc.strerror or exc}): "
                                "foreign adapters run with no process cap")
    if prepared.network or lim.netns is not None:
        _load_libc()
        prepared.ifreq = struct.pack("16sH14x", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING)
    return prepared


def _kill_cgroup(folder: str) -> None:
    """SIGKILL every process left in the cgroup ``folder``, then remove it (a few tries: a
    killed process leaves its cgroup when it has exited)."""
    for attempt in range(50):
        try:
            pids = [int(p) for p in open(os.path.join(folder, "cgroup.procs")).read().split()]
        except OSError:
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01 * (attempt + 1))


# --- naming the cap a process hit --------------------------------------------------------------

#: what runtimes write on standard error when an allocation fails (Python, Go, Node/V8, the JVM,
#: Rust's default allocator, C++, C# (Mono), Ruby, Perl, PHP, glibc's perror)
MEMORY_WORDS = re.compile(
    r"MemoryError|out of memory|OutOfMemory|heap out of memory|allocation failed|"
    r"memory allocation of \d+ bytes failed|bad_alloc|failed to allocate memory|"
    r"Cannot allocate memory|Allowed memory size of|Out of memory!", re.I)


#: a write past RLIMIT_FSIZE where the runtime ignores SIGXFSZ (Python does, from its start):
#: the write fails with EFBIG, and the runtime says so
FILE_WORDS = re.compile(r"File too large|EFBIG")


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) a process used, from ``/proc/PID/stat`` (proc(5)); readable
    until the process is reaped, as a zombie too."""
    try:
        text = open(f"/proc/{pid}/stat", encoding="ascii", errors="replace").read()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()
    try:
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (IndexError, ValueError):
        return None


def explain(prepared: Prepared | None, status: int | None, stderr: list[str],
            cpu: float | None = None) -> str | None:
    """The cap a dead foreign process hit, as "memory cap 2 GiB hit (RLIMIT_DATA)", or None.
    ``status`` is its exit status (negative: the signal), ``stderr`` its last lines, ``cpu`` the
    CPU seconds it used (:func:`cpu_seconds`, read before it was reaped)."""
    if prepared is None:
        return None
    lim = prepared.limits
    cpu_cap = f"CPU cap {lim.cpu} s hit (RLIMIT_CPU)"
    if status == -signal.SIGXCPU:
        return cpu_cap
    if status == -signal.SIGKILL and cpu is not None and cpu >= lim.cpu:
        return cpu_cap
    if status == -signal.SIGXFSZ or (status is not None and any(FILE_WORDS.search(line) for line in stderr)):
        return f"file-size cap {size(lim.file_size)} hit (RLIMIT_FSIZE)"
    if prepared.pids_max_hit():
        return f"process cap {lim.processes} hit (pids.max)"
    if status is not None and any(MEMORY_WORDS.search(line) for line in stderr):
        return memory_cap(lim)
    return None


def memory_cap(lim: Limits) -> str:
    return f"memory cap {size(lim.memory)} hit (RLIMIT_DATA)"
