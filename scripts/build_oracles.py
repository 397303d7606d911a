#!/usr/bin/env python3
"""``make oracles``: install and build every oracle adapter declared by a manifest
(``urlwb/oracles/*/oracles.toml``, see ``urlwb/oracles/PROTOCOL.md``).

1. As root, where ``apt-get`` exists: the ``apt`` packages of each manifest one of whose
   ``requires`` commands (its own, or one of its oracles') is missing, those not yet installed, in one ``apt-get update`` and one
   ``apt-get install``, under ``flock /tmp/urlwb-apt.lock`` (other builds on the machine wait
   their turn). Nothing is fetched when nothing is missing.
2. Each folder's ``build`` line, run with ``sh -c`` in that folder (its log in
   ``build/build.log`` there), when the commands it ``requires`` are on PATH.
3. One line per oracle: ``built`` (or ``ready``, nothing to build), or ``skipped`` with the reason.

A failing build is a skip line, never a failed ``make``: the workbench runs without that oracle
and says why. After the first fetch the builds work offline from the package managers' caches
(npm's, Go's module cache, Cargo's, Maven's). ``--only FOLDER`` limits it to some folders.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from urlwb.oracles import manifests  # noqa: E402  (the checkout's own, not an installed one)

#: seconds a folder's build may take (a first Maven or Cargo fetch is the slow case)
BUILD_TIMEOUT = 1200
APT_LOCK = "/tmp/urlwb-apt.lock"


def missing_apt(packages: list[str]) -> list[str]:
    """The packages dpkg does not list as installed."""
    out = []
    for p in packages:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True)
        if r.returncode != 0 or "install ok installed" not in r.stdout:
            out.append(p)
    return out


def install_apt(packages: list[str]) -> str:
    """One line: what happened to the system packages."""
    if not packages:
        return "apt: nothing to install"
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return (f"apt: not root or no apt-get: not installing {' '.join(packages)} "
                "(the oracles that need them are skipped with the reason)")
    script = ("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
              "--no-install-recommends " + " ".join(packages))
    lock = ["flock", APT_LOCK] if shutil.which("flock") else []
    r = subprocess.run([*lock, "sh", "-c", script], capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip() or r.stdout.strip() or f"status {r.returncode}").splitlines()[-1]
        return f"apt: install of {' '.join(packages)} failed: {last}"
    return f"apt: installed {' '.join(packages)}"


def build(folder: manifests.Folder) -> str | None:
    """Run the folder's build line; None when it succeeded, else the one-line reason."""
    missing = [c for c in folder.requires if shutil.which(c) is None]
    if missing:
        return f"{', '.join(missing)} not found on PATH" + (
            f" (its apt packages: {' '.join(folder.apt)})" if folder.apt else "")
    if not folder.build:
        return None
    log = folder.path / "build" / "build.log"
    log.parent.mkdir(exist_ok=True)
    t0 = time.monotonic()
    try:
        with open(log, "w", encoding="utf-8") as out:
            r = subprocess.run(["sh", "-c", folder.build], cwd=folder.path, stdout=out,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"build did not finish in {BUILD_TIMEOUT} s (log: {log.relative_to(ROOT)})"
    except OSError as exc:
        return f"build could not run ({exc.strerror or exc})"
    if r.returncode != 0:
        lines = [x for x in log.read_text(encoding="utf-8", errors="replace").splitlines() if x.strip()]
        return (f"build failed (status {r.returncode}: {lines[-1][:160] if lines else 'no output'}; "
                f"log: {log.relative_to(ROOT)})")
    print(f"  {folder.path.name}: built in {time.monotonic() - t0:.1f} s", flush=True)
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], metavar="FOLDER",
                    help="only this folder of urlwb/oracles/ (repeatable)")
    args = ap.parse_args(argv)
    folders = manifests.discover()
    unknown = set(args.only) - {f.path.name for f in folders}
    if unknown:
        print(f"build_oracles: no manifest urlwb/oracles/{sorted(unknown)[0]}/oracles.toml", file=sys.stderr)
        return 2
    if args.only:
        folders = [f for f in folders if f.path.name in args.only]
    for f in folders:
        if f.error:
            print(f"skipped {f.path.name}/: manifest not read: {f.error}")
    folders = [f for f in folders if not f.error]
    # A folder's packages are wanted only while a command it requires is missing (node from
    # another source than Debian's, say, needs no Debian npm).
    wanted = {p for f in folders if any(shutil.which(c) is None for s in f.specs for c in s.requires)
              for p in f.apt}
    print(install_apt(missing_apt(sorted(wanted))), flush=True)
    for folder in folders:
        why = build(folder)
        fresh = manifests.read_folder(folder.path / "oracles.toml")  # outputs exist now?
        for spec in fresh.specs:
            reason = why or spec.skip
            if reason:
                print(f"skipped {spec.name}: {reason}")
            else:
                print(f"built   {spec.name}" if folder.build else f"ready   {spec.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
