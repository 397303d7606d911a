"""The npm validators' sandbox changes no answer (issue 34, part 6): the adapter blocks DNS for
names only and is-localhost-ip's namespace has its lo up, so each package, run as ``urlwb ssrf``
runs it, answers an IP address as it does in plain node on the host."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

NPM = pathlib.Path(__file__).resolve().parents[2] / "urlwb" / "ssrf" / "validators" / "npm"
HOSTS = ["0.0.0.0", "::", "127.0.0.1", "10.0.0.1", "169.254.0.1", "169.254.1.1", "8.8.8.8", "::ffff:a00:1", "fd00::1"]
#: what each adapter calls, in plain node (no adapter): its allow, per host
PLAIN = {"ip": "async h => !(await load('ip')).isPrivate(h)",
         "private-ip": "async h => !(await load('private-ip'))(h)",
         "is-localhost-ip": "async h => !(await (await load('is-localhost-ip'))(h))"}
#: the package as the adapter loads it (import, its default export when it has one)
LOAD = "const load = async p => { const m = await import(p); return m.default ?? m; };"


def _plain(name: str) -> list[bool]:
    script = (f"{LOAD} const f = {PLAIN[name]}; Promise.all({json.dumps(HOSTS)}.map(async h => {{ try {{ return await f(h) }} "
              "catch (e) { return null } })).then(x => process.stdout.write(JSON.stringify(x)))")
    r = subprocess.run(["node", "-e", script], cwd=NPM, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _adapter(name: str) -> list[bool | None]:
    """The validator as ``urlwb ssrf`` runs it: its adapter, under the supervisor, sandboxed."""
    from urlwb.ssrf import catalog
    started, skipped = catalog.start([catalog.Declared(name, spec=catalog.SHIPPED[name], base=name)])
    assert not skipped, skipped
    try:
        answers = started[name].check_many([f"http://{'[' + h + ']' if ':' in h else h}/" for h in HOSTS])
    finally:
        started[name].close()
    return [None if a.failure else a.allow for a in answers]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_the_adapter_answers_as_plain_node(name):
    """Killed by the adapter as it was (dns.lookup replaced outright: is-localhost-ip's bind check
    failed there, so 0.0.0.0 and :: were allowed where plain node calls them local), and by the
    sandbox's namespace with its lo down (there the bind check binds 8.8.8.8: every address
    outside its ranges was local, denied)."""
    if shutil.which("node") is None or not (NPM / "node_modules" / name).exists():
        pytest.skip("node or the npm validators are not installed (make oracles)")
    assert _adapter(name) == _plain(name)
