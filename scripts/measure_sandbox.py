"""Measure what the sandbox of foreign processes does here (docs/security.md's figures):

    python scripts/measure_sandbox.py

Each planted child is started as the supervisor starts an adapter (``urlwb.children.popen`` with
``sandbox=urlwb.sandbox.limits()``), with one cap lowered through its environment variable so
that hitting it takes seconds, and the cap it hit is named by ``urlwb.sandbox.explain`` as the
crash record names it. Then the cost of confinement: the mean start of ``python -c pass`` over
20 starts, confined and not.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from urlwb import children, sandbox  # noqa: E402

PLANTS = {
    "network": ({}, "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), timeout=5)\n    print('connected')\n"
                    "except OSError as e:\n    print('connect failed:', e.strerror)"),
    "memory": ({}, "b = []\nwhile True:\n    b.append(bytearray(64 << 20))"),
    "cpu": ({"URLWB_SANDBOX_CPU": "2"}, "while True:\n    pass"),
    "file size": ({"URLWB_SANDBOX_FILE_SIZE": "1M"}, "open('/tmp/urlwb-fsize-probe', 'wb').write(b'x' * (2 << 20))"),
    "processes": ({"URLWB_SANDBOX_PROCESSES": "16"},
                  "import threading, time\nts = []\nfor i in range(64):\n    t = threading.Thread(target=time.sleep, args=(3,))\n"
                  "    t.start()\n    ts.append(t)"),
}


def run(name: str, env: dict, code: str) -> None:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        lim = sandbox.limits()
        t0 = time.monotonic()
        proc = children.popen([sys.executable, "-c", code], sandbox=lim, stdout=-1, stderr=-1, text=True)
        out, err = proc.communicate(timeout=120)
        cpu = None
        cap = sandbox.explain(proc.sandbox, proc.returncode, err.splitlines()[-5:], cpu)
        seconds = time.monotonic() - t0
        children.release(proc)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    said = (out.strip() or (err.strip().splitlines() or [""])[-1])[:90]
    print(f"{name:<10} status {proc.returncode:>4}  {seconds:5.1f} s  cap: {cap or '-'}  said: {said}")


def starts(confined: bool, n: int = 20) -> float:
    t0 = time.monotonic()
    for _ in range(n):
        proc = children.popen([sys.executable, "-c", "pass"], sandbox=sandbox.limits() if confined else None)
        proc.wait()
        children.release(proc)
    return (time.monotonic() - t0) / n * 1000


def main() -> int:
    print(sandbox.describe())
    for name, (env, code) in PLANTS.items():
        run(name, env, code)
    plain, confined = starts(False), starts(True)
    print(f"start of python -c pass: {plain:.0f} ms unconfined, {confined:.0f} ms confined (mean of 20)")
    try:
        os.unlink("/tmp/urlwb-fsize-probe")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
