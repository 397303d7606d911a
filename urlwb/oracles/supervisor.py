"""The supervisor: one child process per oracle outside the workbench, fed, timed and restarted.

Protocol: ``docs/oracle-protocol.md``. Each child is started by :mod:`urlwb.children` (a
process group of its own, a parent-death signal, and the reaper that kills its group when the
workbench dies), so that none outlives the workbench, however it dies; on a normal end its
standard input is closed, it has ``EXIT_GRACE`` seconds to exit, and its group is killed. A child is fed by three threads of its
own (a writer of requests, a reader of answers, a drain of its standard error); the thread that
asks (:meth:`Supervised.run`) keeps up to ``window`` requests in flight, matches answers by id,
and holds the oldest unanswered request to its deadline.

What goes wrong, and what happens (each counted, none silent):

- the child exits or closes its output: it is restarted and the requests in flight are sent
  again one at a time; the one that kills it again gets an "oracle crashed" record (exit status,
  last line of standard error);
- no answer to the oldest request in flight within ``deadline`` seconds of its being written or
  becoming the oldest: the child is killed and restarted; that request gets an "oracle hung"
  record;
- a line that is not JSON, not an object, has no integer id, an unknown or repeated id, or an
  answer out of schema: the child is restarted; the request the line claims (else the oldest in
  flight) gets an "oracle crashed" record with the line;
- an input (or base) longer than ``max_input`` code points is not sent: not applicable;
- after ``max_restarts`` restarts the oracle is given up: the rest is not applicable, with that
  reason in :attr:`Supervised.given_up`.

Every child is foreign code and runs confined (:mod:`urlwb.sandbox`: no network, a memory,
CPU-time, file-size and process cap). A child that dies at a cap has the cap named first in its
crash record ("memory cap 2 GiB hit (RLIMIT_DATA): exit status 1; stderr: MemoryError"), and so
has a crash *answer* whose text says an allocation failed (an adapter that caught its runtime's
out-of-memory error); the restart gives the next child a fresh budget.
"""

from __future__ import annotations

import collections
import fcntl
import json
import os
import queue
import struct
import subprocess
import termios
import threading
import time
from collections import Counter, OrderedDict

from urlwb import children, sandbox
from urlwb.oracles import NOT_APPLICABLE, Oracle, Unavailable, crash_record, hang_record, manifests, protocol
from urlwb.oracles.host_answer import HostAnswer, HostOracle

#: the longest line read from a child (an answer to a 1 MB input with every field escaped fits)
MAX_LINE = 256 * 1024 * 1024
#: lines of a child's standard error kept to explain its death
STDERR_LINES = 20
#: seconds a child has to exit after its standard input is closed, before its group is killed
EXIT_GRACE = 2.0

class _Spawner:
    """Starts every child from one long-lived thread, through :func:`urlwb.children.popen` (a
    process group of its own, a parent-death signal, the reaper that kills the group when the
    workbench dies): the parent-death signal fires when the *thread* that forked a child ends, so
    children must not be forked by the short-lived threads that ask."""

    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _serve(self):
        while True:
            args, kwargs, box, done = self._jobs.get()
            try:
                box.append(children.popen(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed back to the caller, raised there
                box.append(exc)
            done.set()

    def popen(self, command: list[str], **kwargs) -> subprocess.Popen:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="urlwb-spawner", daemon=True)
                self._thread.start()
        box: list = []
        done = threading.Event()
        self._jobs.put(((command,), kwargs, box, done))
        done.wait()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]


SPAWNER = _Spawner()


class _Child:
    """One started process and its threads. Its events go to the supervisor's inbox tagged with
    the child, so that those of a child already replaced are told apart and dropped."""

    def __init__(self, spec: manifests.Spec, inbox: queue.SimpleQueue):
        env = {**os.environ, **spec.env} if spec.env else None
        try:
            limits = sandbox.limits(loopback=spec.loopback)
        except ValueError as exc:
            raise Unavailable(f"cannot start: {exc}") from None
        try:
            self.proc = SPAWNER.popen(spec.command, cwd=spec.cwd, env=env, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                                      sandbox=limits)
        except OSError as exc:
            raise Unavailable(f"{spec.command[0]} cannot start ({exc.strerror or exc})") from None
        except subprocess.SubprocessError as exc:  # the confinement failed in the child: fail closed
            raise Unavailable(f"{spec.command[0]} cannot start confined ({exc})") from None
        self.inbox = inbox
        self.requests: queue.SimpleQueue = queue.SimpleQueue()
        #: bytes of requests written to its standard input
        self.sent = 0
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.killed = False
        for target, name in ((self._write, "writer"), (self._read, "reader"), (self._drain, "stderr")):
            threading.Thread(target=target, name=f"{spec.name}-{name}", daemon=True).start()

    def _write(self):
        out = self.proc.stdin
        try:
            while True:
                line = self.requests.get()
                if line is None:
                    break
                out.write(line)
                self.sent += len(line)
        except (OSError, ValueError):  # the child is gone: its reader reports that
            pass
        finally:
            try:
                out.close()
            except OSError:
                pass

    def _read(self):
        """Whatever the child wrote, cut into lines: one event per read, not per line (each event
        wakes the asking thread, and each wake-up costs a turn of the GIL)."""
        fd = self.proc.stdout.fileno()
        buf = b""
        try:
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                buf += chunk
                if b"\n" not in chunk:
                    if len(buf) > MAX_LINE:
                        self.inbox.put((self, "bad", None, f"a line longer than {MAX_LINE} bytes"))
                        return
                    continue
                *lines, buf = buf.split(b"\n")
                self.inbox.put((self, "lines", lines, None))
        except (OSError, ValueError):
            pass
        if buf:
            self.inbox.put((self, "lines", [buf], None))
        self.inbox.put((self, "eof", None, None))

    def _drain(self):
        try:
            for raw in self.proc.stderr:
                text = raw.decode("utf-8", "replace").rstrip()
                if text:
                    self.stderr.append(text[:300])
        except (OSError, ValueError):
            pass

    def send(self, line: bytes) -> None:
        self.requests.put(line)

    def read_nothing(self) -> bool:
        """Whether the (dead) child read not one byte of its requests: all it was sent is still
        in its standard input's pipe (FIONREAD, read from the write end, which the supervisor
        holds). A child that dies so (an adapter that runs out of memory at its start) did not
        die of an input. False when that cannot be told (the pipe already closed)."""
        sent = self.sent
        try:
            unread = struct.unpack("i", fcntl.ioctl(self.proc.stdin.fileno(), termios.FIONREAD, b"\0" * 4))[0]
        except (OSError, ValueError):
            return False
        return unread >= sent

    def last_words(self) -> str:
        """Exit status and the last line of standard error, for a crash record; first the cap it
        hit, when it died at one of the sandbox's caps."""
        cpu = sandbox.cpu_seconds(self.proc.pid) if self.proc.sandbox is not None else None
        status = self.proc.poll()
        if status is None:
            try:
                status = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                status = None
        what = ("still running" if status is None else f"killed by signal {-status}" if status < 0
                else f"exit status {status}")
        time.sleep(0.05)  # let the drain thread take the last lines
        cap = sandbox.explain(self.proc.sandbox, status, list(self.stderr), cpu)
        return (f"{cap}: " if cap else "") + what + (f"; stderr: {self.stderr[-1]}" if self.stderr else "")

    def kill(self) -> None:
        if self.killed:
            return
        self.killed = True
        children.release(self.proc)  # its whole group, then the reaper forgets it
        self.requests.put(None)

    def close(self) -> None:
        """End of input, a grace period to exit, then the group is killed (grandchildren too)."""
        if self.killed:
            return
        self.requests.put(None)
        try:
            self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            pass
        self.killed = True
        children.release(self.proc)


class _Pending:
    __slots__ = ("index", "sent")

    def __init__(self, index: int, sent: float):
        self.index, self.sent = index, sent


_UNSET = object()


class Supervised:
    """One oracle outside the process: its current child, its restarts, its counts.

    Not thread-safe: one thread asks at a time (different oracles may be asked from different
    threads at once)."""

    def __init__(self, spec: manifests.Spec):
        self.spec = spec
        self.name = spec.name
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.child: _Child | None = None
        self.hello: dict = {}
        self.restarts = 0
        self.given_up: str | None = None
        self.closed = False
        #: ``time.monotonic()`` after which a run asks nothing more: what is left comes back not
        #: applicable (a diff's --minutes, a campaign round's end), however the child behaves
        self.stop_at: float | None = None
        #: answered, rejected, not applicable, crashed, hung (per request)
        self.counts: Counter = Counter()
        #: one line per thing that went wrong: restarts, bad lines, what no input could be blamed for
        self.incidents: list[str] = []
        #: (class, what, input, reason) for each request that got a crash or hang record: class
        #: "oracle-crashed" or "oracle-hung", what "died", "bad answer" or "hung"
        self.findings: list[tuple[str, str, str, str]] = []
        self._next_id = 0
        self._answered: dict[int, int] = {}  # id -> index, for repeated answers
        self._start()

    # --- the child --------------------------------------------------------------------------

    def _start(self) -> None:
        self.child = _Child(self.spec, self.inbox)

    def ready(self) -> None:
        """Wait for the hello line (start deadline); Unavailable with the reason otherwise."""
        child = self.child
        deadline = time.monotonic() + self.spec.start_deadline
        while True:
            try:
                who, what, lines, why = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._stop()
                raise Unavailable(f"no hello line within {self.spec.start_deadline:g} s "
                                  f"(command: {' '.join(self.spec.command)})") from None
            if who is not child:
                continue
            if what == "eof":
                words = child.last_words()
                self._stop()
                raise Unavailable(f"exited before its hello line ({words})")
            if what == "bad":
                self._stop()
                raise Unavailable(f"first line: {why}")
            line = lines[0]
            if len(lines) > 1:
                self.incidents.append(f"{len(lines) - 1} lines after the hello line before any request "
                                      f"(ignored): {_show(lines[1])}")
            try:
                self.hello = protocol.check_hello(json.loads(line))
            except (ValueError, RecursionError, protocol.SchemaError) as exc:
                self._stop()
                reason = exc if isinstance(exc, protocol.SchemaError) else "the first line is not JSON"
                raise Unavailable(f"{reason}: {_show(line)}") from None
            if self.spec.source == "manifest" and self.hello["name"] != self.spec.name:
                self._stop()
                raise Unavailable(f"its hello line says name {self.hello['name']!r}, its manifest {self.spec.name!r}")
            return

    def _stop(self) -> None:
        if self.child is not None:
            self.child.kill()

    def _restart(self, why: str) -> bool:
        """Kill the child and start another (True), or give the oracle up (False)."""
        self.child.kill()
        if self.closed:
            return False
        if self.restarts >= self.spec.max_restarts:
            self.given_up = f"given up after {self.restarts} restarts (then: {why})"
            self.incidents.append(self.given_up)
            return False
        self.restarts += 1
        self.incidents.append(f"restarted ({why})")
        try:
            self._start()
            self.ready()
        except Unavailable as exc:
            self.given_up = f"given up: it did not start again ({exc})"
            self.incidents.append(self.given_up)
            return False
        return True

    def close(self) -> None:
        """End the child; a :meth:`run` going on in another thread (an interrupted ``urlwb
        diff``) then ends too, the rest not applicable."""
        self.closed = True
        if self.child is not None:
            self.child.close()

    # --- requests ---------------------------------------------------------------------------

    def run(self, payloads: list, convert) -> list:
        """Send every payload, at most ``window`` in flight, and return the converted answers in
        order. A payload is ``(input, line_of)``: the input (named in findings) and a function of
        a request id giving the request line; None is not sent and comes back not applicable.
        ``convert(obj)`` turns an answer into its value, raising SchemaError when out of schema."""
        return _Batch(self, payloads, convert).run()

    def _send(self, indices: list[int], payloads, inflight, now: float) -> None:
        """Requests for ``indices``, in one write."""
        lines = []
        for index in indices:
            rid = self._next_id
            self._next_id += 1
            lines.append(payloads[index][1](rid))
            inflight[rid] = _Pending(index, now)
        self.child.send(b"".join(lines))

class _Batch:
    """One :meth:`Supervised.run`: the payloads, their answers so far, and what is in flight.

    Requests go out by half windows and are matched by id. A request with no answer past its
    deadline is pinned as a hang; a bad line, on the request it claims; a death with several
    requests in flight sends them again one at a time (``suspects``), so that the one the child
    dies on alone is the one that kills it ("pinning")."""

    def __init__(self, sup: "Supervised", payloads: list, convert):
        self.sup, self.payloads, self.convert = sup, payloads, convert
        self.results: list = [_UNSET] * len(payloads)
        self.todo: collections.deque[int] = collections.deque()
        for i, p in enumerate(payloads):
            if p is None:
                self.results[i] = NOT_APPLICABLE
                sup.counts["not applicable"] += 1
            else:
                self.todo.append(i)
        self.inflight: OrderedDict[int, _Pending] = OrderedDict()
        self.suspects: collections.deque[int] = collections.deque()
        #: sending the suspects alone; how many were in flight at the death; how many pinned
        self.alone, self.pinned_of, self.pinned = False, 0, 0
        self.oldest_key, self.oldest_clock = None, 0.0
        sup._answered.clear()

    # -- bookkeeping --------------------------------------------------------------------------

    def settle(self, index: int, value) -> None:
        self.results[index] = value
        self.sup.counts[_count(value)] += 1

    def finding(self, index: int, what: str, reason: str) -> None:
        cls = "oracle-hung" if what == "hung" else "oracle-crashed"
        self.sup.findings.append((cls, what, self.payloads[index][0], reason))

    def end_pinning(self) -> None:
        if self.alone and not self.pinned and not self.sup.given_up:
            self.sup.incidents.append(f"died with {self.pinned_of} requests in flight, none of which "
                                      "kills it alone (not attributed to an input)")
        self.alone, self.pinned_of, self.pinned = False, 0, 0

    def requeue_inflight(self) -> None:
        for p in reversed(self.inflight.values()):
            (self.suspects if self.alone else self.todo).appendleft(p.index)
        self.inflight.clear()

    # -- what the child says ------------------------------------------------------------------

    def take(self, line: bytes) -> None:
        """One line of the child: an answer to a request in flight, or a bad line."""
        obj = None
        try:
            obj = protocol.decode_line(line)
            rid = obj["id"]
            if rid not in self.inflight:
                raise protocol.SchemaError(("a repeated answer for id " if rid in self.sup._answered
                                            else "an answer for an unknown id ") + str(rid))
            value = self.convert(obj)
        except protocol.SchemaError as exc:
            self.bad(obj.get("id") if obj else None, f"{exc}: {_show(line)}")
            return
        p = self.inflight.pop(rid)
        self.sup._answered[rid] = p.index
        crash = getattr(value, "crash", None)
        if crash and self.sup.child.proc.sandbox is not None and sandbox.MEMORY_WORDS.search(crash):
            value = value._replace(crash=f"{sandbox.memory_cap(self.sup.child.proc.sandbox.limits)}: {crash}"[:300])
        self.settle(p.index, value)

    def bad(self, rid, reason: str) -> None:
        """A bad line: the request it claims (in flight, or answered already: a repeated answer)
        gets the crash record, else the oldest in flight, else no input is to blame; then a
        restart."""
        sup, index = self.sup, None
        if rid is not None and rid in self.inflight:
            index = self.inflight.pop(rid).index
        elif rid is not None and rid in sup._answered:
            index = sup._answered.pop(rid)
            sup.counts[_count(self.results[index])] -= 1
        elif self.inflight:
            index = self.inflight.popitem(last=False)[1].index
        else:
            sup.incidents.append(f"a bad line with nothing in flight: {reason}")
        if index is not None:
            self.settle(index, crash_record(f"bad answer: {reason}"))
            self.finding(index, "bad answer", reason)
        self.requeue_inflight()
        sup._restart(f"a bad line ({reason})")

    def hung(self, rid: int) -> None:
        """The oldest request in flight passed its deadline."""
        if self.sup.child.read_nothing():   # busy since its start (or stuck): no input's hang
            self.requeue_inflight()
            self.sup._restart(f"no answer within {self.sup.spec.deadline:g} s, and not one request read")
            return
        p = self.inflight.pop(rid)
        reason = f"no answer within {self.sup.spec.deadline:g} s"
        self.settle(p.index, hang_record(f"hung: {reason}"))
        self.finding(p.index, "hung", reason)
        self.requeue_inflight()
        self.sup._restart(f"hung on {_show_input(self.payloads[p.index][0])}")

    def died(self) -> None:
        """The child's output ended."""
        sup = self.sup
        if self.inflight and sup.child.read_nothing():   # not an input's doing: none is blamed
            words = sup.child.last_words()
            self.requeue_inflight()
            sup._restart(f"died before reading any input ({words}); {len(self.suspects) + len(self.todo)} "
                         "requests sent again")
        elif self.alone and self.inflight:  # one request in flight: the culprit
            words = sup.child.last_words()
            p = self.inflight.popitem()[1]
            self.settle(p.index, crash_record(f"crashed: {words}"))
            self.finding(p.index, "died", words)
            self.pinned += 1
            sup._restart(f"died on {_show_input(self.payloads[p.index][0])}: {words}")
        elif self.inflight:
            words = sup.child.last_words()
            self.suspects.extend(p.index for p in self.inflight.values())
            self.alone, self.pinned_of, self.pinned = True, len(self.inflight), 0
            self.inflight.clear()
            sup._restart(f"died with {len(self.suspects)} requests in flight ({words}); "
                         "sending them again one at a time")
        else:
            sup._restart(f"died with nothing in flight: {sup.child.last_words()}")

    # -- the loop -------------------------------------------------------------------------------

    def send_next(self, now: float) -> bool:
        """Send what may go now; False when there is nothing to wait for (pinning ended)."""
        sup = self.sup
        if self.suspects or self.alone:
            if not self.inflight and self.suspects:
                sup._send([self.suspects.popleft()], self.payloads, self.inflight, now)
                self.alone = True
            elif not self.inflight:
                self.end_pinning()
                return False
        elif self.todo and len(self.inflight) <= sup.spec.window // 2:
            # Refill by half windows: requests go out in batches, answers come back in batches.
            n = min(len(self.todo), sup.spec.window - len(self.inflight))
            sup._send([self.todo.popleft() for _ in range(n)], self.payloads, self.inflight, now)
        return True

    def run(self) -> list:
        sup = self.sup
        while self.todo or self.inflight or self.suspects:
            if sup.given_up or sup.closed or (sup.stop_at is not None and time.monotonic() > sup.stop_at):
                for i in [*self.todo, *(p.index for p in self.inflight.values()), *self.suspects]:
                    self.settle(i, NOT_APPLICABLE)
                break
            now = time.monotonic()
            if not self.send_next(now):
                continue
            first = next(iter(self.inflight))
            if first != self.oldest_key:
                self.oldest_key, self.oldest_clock = first, now
            try:
                wait = self.oldest_clock + sup.spec.deadline - time.monotonic()
                stop = None if sup.stop_at is None else sup.stop_at - time.monotonic()
                who, what, lines, why = sup.inbox.get(timeout=max(0.0, wait if stop is None else min(wait, stop)))
            except queue.Empty:
                if stop is not None and stop < wait:
                    continue   # the run's end, not the request's deadline: the loop settles the rest
                self.hung(first)
                continue
            if who is not sup.child:
                continue  # from a child already replaced
            if what == "lines":
                for line in lines:
                    if who is not sup.child:
                        break  # a bad line restarted it: the rest came from the old child
                    self.take(line)
            elif what == "bad":
                self.bad(None, why)
            else:
                self.died()
        self.end_pinning()
        return self.results


def _count(value) -> str:
    if value is None:
        return "not applicable"
    if isinstance(value, HostAnswer):
        return "crashed" if value.crash else "rejected" if value.failure else "answered"
    if value.crash:
        return "hung" if value.hung else "crashed"
    return "rejected" if value.failure else "answered"


def _show(line) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else str(line)
    text = text.rstrip("\n")
    return repr(text[:120] + ("…" if len(text) > 120 else ""))


def _show_input(s: str) -> str:
    return repr(s[:80] + ("…" if len(s) > 80 else ""))


def _expect_kind(sup: Supervised, kind: str) -> None:
    if sup.hello["kind"] != kind:
        sup.close()
        raise Unavailable(f"its hello line says kind {sup.hello['kind']!r}, where a {kind!r} oracle "
                          f"is declared (set kind = \"{sup.hello['kind']}\" where it is declared)")


class SubprocessOracle(Oracle):
    """A URL oracle outside the process (kind ``url``): the :class:`Oracle` interface over a
    :class:`Supervised` child. Its children run apart from the workbench's thread, so
    ``urlwb diff`` asks several of them at once (``runs_apart``)."""

    runs_apart = True

    def __init__(self, spec: manifests.Spec):
        self.spec = spec
        self.name = spec.name
        self.family = spec.family
        self.version = "?"
        self.sup = Supervised(spec)

    def ready(self) -> None:
        self.sup.ready()
        _expect_kind(self.sup, "url")
        h = self.sup.hello
        self.family, self.version, self.supports_base = h["family"], h["version"], h["base"]
        self.parser, self.language = h["parser"], h["language"]

    def parse_many(self, items):
        limit = self.spec.max_input
        payloads = []
        for input, base in items:
            if len(input) > limit or (base is not None and (len(base) > limit or not self.supports_base)):
                payloads.append(None)
            else:
                payloads.append((input, lambda rid, i=input, b=base: protocol.request_line(rid, i, b)))
        return self.sup.run(payloads, protocol.url_answer)

    def parse(self, input, base=None):
        return self.parse_many([(input, base)])[0]

    def close(self):
        self.sup.close()


class SubprocessHostOracle(HostOracle):
    """A host-level oracle outside the process (kind ``host``)."""

    def __init__(self, spec: manifests.Spec):
        self.spec = spec
        self.name = spec.name
        self.sup = Supervised(spec)
        self.sup.ready()
        _expect_kind(self.sup, "host")
        self.version = self.sup.hello["version"]
        self.questions = tuple(self.sup.hello["questions"])

    def answer_many(self, items: list[tuple[str, str]]) -> list[HostAnswer | None]:
        limit = self.spec.max_input
        payloads = [None if len(text) > limit or q not in self.questions else
                    (text, lambda rid, q=q, t=text: protocol.question_line(rid, q, t)) for q, text in items]
        return self.sup.run(payloads, protocol.host_answer)

    def answer(self, question, text):
        got = self.answer_many([(question, text)])[0]
        return HostAnswer(False, None, "not applicable") if got is None else got

    def close(self):
        self.sup.close()
