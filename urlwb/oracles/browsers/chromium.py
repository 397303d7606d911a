"""Oracle adapter: ``new URL(input, base)`` in Debian's Chromium, headless, driven over the
DevTools protocol on ``--remote-debugging-pipe``.

https://url.spec.whatwg.org/#dom-url-url
https://chromedevtools.github.io/devtools-protocol/ (Target, Runtime, Browser domains)

Run as ``python chromium.py`` (the workbench's ``{python}``); speaks ``docs/oracle-protocol.md``. With
``--remote-debugging-pipe`` Chromium reads DevTools commands on its fd 3 and writes its replies on
fd 4, each message a JSON object ended by a NUL byte. The adapter opens one blank page, attaches
to it (a flat session), defines ``urlwbBatch`` there once, and then calls it with
``Runtime.evaluate`` per batch. Chromium also ends itself when the pipe closes.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time

import browser_adapter as ba

#: Flags for a closed network and a machine shared by several users (polyglot.md): nothing is
#: fetched in the background, no GPU, no sandbox (the adapter may run as root).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--no-default-browser-check",
         "--disable-breakpad", "--disable-dev-shm-usage", "--mute-audio",
         "--disable-client-side-phishing-detection", "--disable-domain-reliability",
         "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
         "CertificateTransparencyComponentUpdater,AutofillServerCommunication",
         "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
         # Whatever still looks a name up (sign-in, update checks) finds nothing, without DNS.
         "--host-resolver-rules=MAP * ~NOTFOUND",
         "--remote-debugging-pipe", "--user-data-dir={profile}", "about:blank"]


class DevToolsPipe:
    """Commands out on one pipe, replies in on the other, NUL-separated JSON."""

    def __init__(self, write_fd: int, read_fd: int):
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode("ascii") + b"\0"
        while data:
            data = data[os.write(self.write_fd, data):]
        while True:  # replies to other ids and events (none are enabled) are skipped
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _read_message(self) -> dict:
        while b"\0" not in self.buffer:
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)


def _pipe() -> tuple[int, int]:
    """A pipe whose ends are above fd 10, so that moving them onto fds 3 and 4 in the child
    cannot overwrite one with the other."""
    ends = []
    for fd in os.pipe():
        ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return ends[0], ends[1]


def start():
    """Chromium with the pipe on its fds 3 and 4; (browser, pipe, page session, version)."""
    executable = ba.find_executable("chromium")
    to_browser_r, to_browser_w = _pipe()
    from_browser_r, from_browser_w = _pipe()
    browser = ba.Browser("chromium", [executable, *FLAGS], fds={3: to_browser_r, 4: from_browser_w})
    os.close(to_browser_r)
    os.close(from_browser_w)
    try:
        pipe = DevToolsPipe(to_browser_w, from_browser_r)
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.call("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        defined = pipe.call("Runtime.evaluate", {"expression": ba.BATCH_FUNCTION + "; 'ok'",
                                                 "returnByValue": True}, session)
        if defined.get("exceptionDetails"):
            raise RuntimeError(f"defining urlwbBatch: {defined['exceptionDetails']}")
        version = pipe.call("Browser.getVersion")
    except (OSError, RuntimeError, EOFError) as exc:
        words = browser.last_words()
        browser.close()
        raise RuntimeError(f"{exc}; {words}") from None
    return browser, pipe, session, version


def main() -> None:
    started = time.monotonic()
    try:
        browser, pipe, session, version = start()
    except (OSError, RuntimeError) as exc:
        ba.log(f"Chromium did not start: {exc}")
        sys.exit(1)
    ba.log(f"started in {time.monotonic() - started:.2f} s")

    def evaluate(requests_json: str) -> list[dict]:
        # The JSON text goes in as a JavaScript string literal (ASCII, escapes intact).
        result = pipe.call("Runtime.evaluate", {
            "expression": f"urlwbBatch({json.dumps(requests_json)})", "returnByValue": True},
            session)
        if result.get("exceptionDetails"):
            raise RuntimeError(f"urlwbBatch threw: {result['exceptionDetails']}")
        return json.loads(result["result"]["value"])

    product = version["product"].split("/", 1)[-1]  # "HeadlessChrome/156.0.8078.114"
    try:
        ba.serve({"name": "chromium", "parser": "new URL(input, base) in Chromium (Blink, //url)",
                  "language": "JavaScript (Chromium)",
                  "version": f"{product} (V8 {version.get('jsVersion', '?')})",
                  "family": "whatwg", "kind": "url", "base": True}, evaluate)
    except (OSError, RuntimeError, EOFError) as exc:
        ba.log(f"{exc}; {browser.last_words()}")
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
