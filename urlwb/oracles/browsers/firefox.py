"""Oracle adapter: ``new URL(input, base)`` in Debian's Firefox ESR, headless, driven over
Marionette (Firefox's own remote protocol; no geckodriver, which Debian does not package).

https://url.spec.whatwg.org/#dom-url-url
https://firefox-source-docs.mozilla.org/testing/marionette/Protocol.html

Run as ``python firefox.py`` (the workbench's ``{python}``); speaks ``docs/oracle-protocol.md``. Firefox
starts with ``-headless -marionette -no-remote -profile DIR`` in a fresh profile whose ``user.js``
turns off everything that would connect out (below) and sets ``marionette.port`` to 0: Firefox
then picks a free port and writes it to ``DIR/MarionetteActivePort``. Marionette frames each
message as ``LENGTH:JSON``; a command is ``[0, id, name, params]``, its reply
``[1, id, error, result]``. The adapter opens a session (``WebDriver:NewSession``), loads
``about:blank``, and runs ``urlwbBatch`` per batch with ``WebDriver:ExecuteScript``.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time

import browser_adapter as ba

#: Seconds to wait for Marionette's port file (Firefox's first start in a new profile takes ~5 s).
START_TIMEOUT = 60.0

#: No connection out on a closed network: updates, telemetry, safe browsing, remote settings,
#: captive portal and connectivity checks, the media plugins' (GMP) downloads, push, DNS-over-HTTPS, prefetch, the new-tab feeds. The
#: Marionette server adds its own "recommended preferences" (remote.prefs.recommended) on top.
PREFS = {
    "marionette.port": 0,
    "app.update.disabledForTesting": True, "app.update.auto": False,
    "app.normandy.enabled": False, "app.normandy.api_url": "",
    "app.shield.optoutstudies.enabled": False,
    "browser.aboutwelcome.enabled": False,
    "browser.discovery.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.system.topstories": False,
    "browser.newtabpage.activity-stream.feeds.snippets": False,
    "browser.newtabpage.activity-stream.telemetry": False,
    "browser.ping-centre.telemetry": False,
    "browser.region.network.url": "", "browser.region.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.google.updateURL": "",
    "browser.safebrowsing.provider.google4.updateURL": "",
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "browser.search.update": False, "browser.search.geoip.url": "",
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0, "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.topsites.contile.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "dom.push.connection.enabled": False, "dom.push.serverURL": "",
    "extensions.blocklist.enabled": False, "extensions.getAddons.cache.enabled": False,
    "extensions.update.enabled": False, "extensions.systemAddon.update.enabled": False,
    "extensions.systemAddon.update.url": "",
    "geo.provider.network.url": "",
    "media.gmp-manager.url": "", "media.gmp-manager.chromium-update-url": "",
    "media.gmp-provider.enabled": False, "media.gmp-gmpopenh264.enabled": False,
    "media.gmp-widevinecdm.enabled": False, "media.gmp-widevinecdm.allow-chromium-update": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True, "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0, "network.predictor.enabled": False,
    "network.trr.mode": 5,
    "security.OCSP.enabled": 0,
    "security.remote_settings.crlite_filters.enabled": False,
    "security.remote_settings.intermediates.enabled": False,
    "services.settings.server": "data:,#remote-settings-disabled",
    "startup.homepage_welcome_url": "", "startup.homepage_welcome_url.additional": "",
    "toolkit.telemetry.enabled": False, "toolkit.telemetry.server": "",
    "toolkit.telemetry.unified": False, "toolkit.telemetry.archive.enabled": False,
}


def user_js() -> str:
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items())


class Marionette:
    """One TCP connection to Marionette, one command at a time."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=START_TIMEOUT)
        self.sock.settimeout(None)  # a batch may take long; the supervisor's deadline governs
        self.buffer = b""
        self.next_id = 0
        self.server = self._read()  # {"applicationType": "gecko", "marionetteProtocol": 3}

    def call(self, name: str, params: dict | None = None):
        self.next_id += 1
        # ASCII only, so that the length counts bytes and characters alike.
        data = json.dumps([0, self.next_id, name, params or {}]).encode("ascii")
        self.sock.sendall(b"%d:%s" % (len(data), data))
        while True:
            reply = self._read()
            if isinstance(reply, list) and reply[:2] == [1, self.next_id]:
                if reply[2]:
                    raise RuntimeError(f"{name}: {reply[2].get('error')}: {reply[2].get('message')}")
                return reply[3]

    def _read(self):
        while b":" not in self.buffer:
            self._fill()
        length, _, self.buffer = self.buffer.partition(b":")
        length = int(length)
        while len(self.buffer) < length:
            self._fill()
        message, self.buffer = self.buffer[:length], self.buffer[length:]
        return json.loads(message)

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise EOFError("Firefox closed the Marionette connection")
        self.buffer += chunk


def start():
    """Firefox with Marionette on a port of its choosing; (browser, marionette, capabilities)."""
    executable = ba.find_executable("firefox")
    browser = ba.Browser(
        "firefox", [executable, "-headless", "-marionette", "-no-remote", "-profile", "{profile}"],
        env={"MOZ_HEADLESS": "1", "MOZ_CRASHREPORTER_DISABLE": "1", "MOZ_DISABLE_AUTO_SAFE_MODE": "1",
             # release builds ignore services.settings.server unless this is set
             "MOZ_REMOTE_SETTINGS_DEVTOOLS": "1"},
        profile_files={"user.js": user_js()})
    port_file = os.path.join(browser.profile, "MarionetteActivePort")
    started = time.monotonic()
    try:
        while True:
            if browser.proc.poll() is not None:
                raise RuntimeError("Firefox exited before Marionette listened")
            if ba.deadline_passed(started, START_TIMEOUT):
                raise RuntimeError(f"no Marionette port after {START_TIMEOUT:.0f} s")
            try:
                with open(port_file, encoding="ascii") as f:
                    port = int(f.read().strip())
                break
            except (OSError, ValueError):  # not written yet, or half written
                time.sleep(0.05)
        marionette = Marionette(port)
        session = marionette.call("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {
            "timeouts": {"script": None}}}})
        marionette.call("WebDriver:Navigate", {"url": "about:blank"})
    except (OSError, RuntimeError, EOFError) as exc:
        words = browser.last_words()
        browser.close()
        raise RuntimeError(f"{exc}; {words}") from None
    except BaseException:
        browser.close()
        raise
    return browser, marionette, session["capabilities"]


def main() -> None:
    started = time.monotonic()
    try:
        browser, marionette, capabilities = start()
    except (OSError, RuntimeError) as exc:
        ba.log(f"Firefox did not start: {exc}")
        sys.exit(1)
    ba.log(f"started in {time.monotonic() - started:.2f} s")

    def evaluate(requests_json: str) -> list[dict]:
        value = marionette.call("WebDriver:ExecuteScript", {
            "script": ba.BATCH_FUNCTION + "\nreturn urlwbBatch(arguments[0]);",
            "args": [requests_json]})["value"]
        return json.loads(value)

    version = capabilities.get("browserVersion", "?")
    build = capabilities.get("moz:buildID")
    try:
        ba.serve({"name": "firefox", "parser": "new URL(input, base) in Firefox (Gecko)",
                  "language": "JavaScript (Firefox)",
                  "version": f"{version}" + (f" (build {build})" if build else ""),
                  "family": "whatwg", "kind": "url", "base": True}, evaluate)
    except (OSError, RuntimeError, EOFError) as exc:
        ba.log(f"{exc}; {browser.last_words()}")
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
