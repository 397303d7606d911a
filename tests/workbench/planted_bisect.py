"""bisect's registry and builds, planted: two releases of ``whatwg-url``, 1.0.0 misreading the host
(``planted_findings.misreads_host``) and 2.0.0 reading as the Standard (``standard``), each build
``delay`` seconds long. Shared by test_findings_everywhere (its findings) and test_silence (its
progress while it builds)."""

from __future__ import annotations

import dataclasses
import time

from urlwb import oracles


def plant_bisect(monkeypatch, delay: float = 0.0) -> None:
    from urlwb.oracles import manifests
    from urlwb.oracles.versions import builds, names, registries
    # npm versions are semver
    monkeypatch.setattr(registries, "released", lambda registry, package, pre=False, source=None: ["1.0.0", "2.0.0"])

    def build(pkg, version, rebuild=False, log=None):
        time.sleep(delay)
        fn = "misreads_host" if version == "1.0.0" else "standard"
        spec = manifests.user_spec("planted", f"py:planted_findings:{fn}", "flag")
        return dataclasses.replace(spec, name=f"whatwg-url@{version}")

    def add(spec):
        oracles.REGISTRY[spec.name] = oracles.Entry(spec.name, "whatwg", "Python", "urlwb.oracles.protocol",
                                                    "CallableOracle", spec)
    monkeypatch.setattr(builds, "build", build)
    monkeypatch.setattr(names, "add", add)
