#!/usr/bin/env python3
"""``make oracles``: install and build every oracle adapter declared by a manifest
(``urlwb/oracles/*/oracles.toml``, the SSRF validators' ``urlwb/ssrf/validators/*/oracles.toml``
and the HTTP clients' ``urlwb/ssrf/observe/clients/*/oracles.toml``;
see ``docs/oracle-protocol.md``).

1. The Debian packages, decided by dpkg for every folder: each package of its ``apt`` that
   ``dpkg-query`` does not list as installed, and each package of its ``apt_for`` (the package
   that provides a command: a toolchain) that is not installed while its command is not on PATH
   (Go, Node or a JDK from elsewhere needs no Debian one). As root, where ``apt-get`` exists: one
   ``apt-get update`` and one ``apt-get install`` of all of them, under ``flock
   /tmp/urlwb-apt.lock`` (other builds on the machine wait their turn); if that install fails, each
   folder's packages again on their own, so that one package Debian refuses costs only its folder.
   Nothing is fetched when nothing is missing. One line per folder: what it installed, what it
   found installed, what could not be installed and why.
2. Each folder's ``build`` line, run with ``sh -c`` in that folder (its log in
   ``build/build.log`` there), when the commands it ``requires`` are on PATH.
3. One line per oracle: ``built`` (or ``ready``, nothing to build), or ``skipped`` with the reason.
   Ready means it can start: its ``requires`` on PATH, its build outputs there, and its ``probe``
   (``perl -MURI -e1``, a C header through the preprocessor) exiting 0.

A failing build is a skip line, never a failed ``make``: the workbench runs without that oracle
and says why. After the first fetch the builds work offline from the package managers' caches
(npm's, Go's module cache, Cargo's, Maven's). ``--only FOLDER`` limits it to some folders;
``--dry-run`` says what would be installed and built, and does neither.
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


def installed(package: str) -> bool:
    """Whether dpkg lists ``package`` as installed (``dpkg-query`` missing: no Debian, so no)."""
    try:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    except OSError:
        return False
    return r.returncode == 0 and "install ok installed" in r.stdout


def wanted(folder: manifests.Folder) -> tuple[list[str], list[str]]:
    """(packages to install, packages found installed) for one folder, decided by dpkg: every
    package of ``apt``, and the ``apt_for`` package of each command that is not on PATH."""
    packages = list(folder.apt) + [pkg for cmd, pkg in folder.apt_for.items() if shutil.which(cmd) is None]
    packages = list(dict.fromkeys(packages))
    state = {p: installed(p) for p in packages}
    return [p for p in packages if not state[p]], [p for p in packages if state[p]]


def can_install() -> str | None:
    """None when this process can run apt-get, else why not."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "not root"
    if shutil.which("apt-get") is None:
        return "no apt-get"
    return None


def apt_install(packages: list[str], update: bool) -> str | None:
    """Install ``packages`` with apt-get under the machine's apt lock: None, or the reason (the
    last line apt-get wrote)."""
    script = ("apt-get update -qq && " if update else "") + (
        "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends " + " ".join(packages))
    lock = ["flock", APT_LOCK] if shutil.which("flock") else []
    r = subprocess.run([*lock, "sh", "-c", script], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        return (r.stderr.strip() or r.stdout.strip() or f"status {r.returncode}").splitlines()[-1][:200]
    return None


def install_packages(plan: dict[str, tuple[list[str], list[str]]], dry_run: bool = False) -> dict[str, str]:
    """Install every folder's wanted packages; folder name -> its one line (``apt: ...``)."""
    missing = sorted({p for want, _ in plan.values() for p in want})
    failed: dict[str, str] = {}
    why_not = "dry run" if dry_run else can_install()
    if missing and why_not is None:
        reason = apt_install(missing, update=True)
        if reason is not None:  # one refused package: each folder on its own, so the rest still install
            for name, (want, _) in plan.items():
                if want:
                    r = apt_install(want, update=False)
                    if r is not None:
                        failed.update({p: r for p in want if not installed(p)})
    lines = {}
    for name, (want, found) in plan.items():
        parts = []
        if want:
            if why_not is not None:
                parts.append(f"{'would install' if dry_run else f'not installed ({why_not})'}: {' '.join(want)}")
            else:
                done = [p for p in want if p not in failed]
                if done:
                    parts.append(f"installed {' '.join(done)}")
                bad = [p for p in want if p in failed]
                if bad:
                    parts.append(f"could not install {' '.join(bad)} ({failed[bad[0]]})")
        if found:
            parts.append(f"found {' '.join(found)}")
        lines[name] = "apt: " + ("; ".join(parts) if parts else "no Debian packages")
    return lines


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
    ap.add_argument("--dry-run", action="store_true",
                    help="say what would be installed and built; install and build nothing")
    ap.add_argument("--root", type=pathlib.Path, default=manifests.ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    folders = manifests.discover(args.root)
    if args.root == manifests.ROOT:  # and the SSRF validators' folders (urlwb/ssrf/validators/*/oracles.toml)
        folders += manifests.discover(manifests.VALIDATORS_ROOT)
        # and urlwb ssrf's HTTP clients (urlwb/ssrf/observe/clients/*/oracles.toml), after the
        # java folder whose OkHttp jars okhttp-call compiles against
        folders += manifests.discover(manifests.CLIENTS_ROOT)
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
    apt_lines = install_packages({f.path.name: wanted(f) for f in folders}, dry_run=args.dry_run)
    for folder in folders:
        print(f"{folder.path.name}/: {apt_lines[folder.path.name]}", flush=True)
    for folder in folders:
        if args.dry_run:
            print(f"{folder.path.name}/: would build: {folder.build or 'nothing to build'}")
            continue
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
