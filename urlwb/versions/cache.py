"""``urlwb cache clean``: remove every release the workbench installed or built, from its caches
only (issue 31, "cache hygiene").

    urlwb cache clean [--dry-run]

Installed releases live in two folders, and nowhere else (not the checkout, not ``~/.npm``,
``~/.cache/pip`` or site-packages; Maven's local repository ``~/.m2/repository`` keeps the jars
it resolved, as every Maven build does):

- the versions cache (``$URLWB_VERSIONS_CACHE``, else ``${XDG_CACHE_HOME:-~/.cache}/urlwb/versions``):
  each shipped parser's builds at its releases (``<parser>/<version>/``), each user package's
  installs (``_packages/<registry>/<package>/<version>/``), and the clients' own caches the
  installs use (``_npm-cache``, ``_pip-cache``, ``_cargo-target``);
- the validators' cache of ``urlwb ssrf --oracle NAME@VERSION`` (``$URLWB_CACHE/validators``,
  else ``~/.cache/urlwb/validators``).

``--dry-run`` lists each entry with its size and removes nothing. A cache folder that is (or
holds) the checkout or the home folder is refused in one line: a mistyped
``URLWB_VERSIONS_CACHE`` is not a reason to remove either.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import shutil

from urlwb import progress
from urlwb.errors import UsageError
from urlwb.oracles.versions import installs

CLIENT_CACHES = {"_npm-cache": "npm's cache", "_pip-cache": "pip's cache", "_cargo-target": "cargo's build folder"}


def add_arguments(p) -> None:
    p.add_argument("action", choices=["clean"], help="clean: remove the installed and built releases")
    p.add_argument("--dry-run", action="store_true", help="list what would be removed, with sizes; remove nothing")


@dataclasses.dataclass
class Entry:
    path: pathlib.Path
    what: str
    size: int


def roots() -> list[pathlib.Path]:
    """The cache folders that hold installed releases (module docstring)."""
    from urlwb.ssrf import install as validator_installs
    return [installs.cache_root_of_versions(), validator_installs.cache_root()]


def size_of(path: pathlib.Path) -> int:
    """Bytes in the files under ``path`` (symbolic links not followed)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for folder, _, files in os.walk(path):
        for f in files:
            try:
                st = os.lstat(os.path.join(folder, f))
            except OSError:
                continue
            total += st.st_size
    return total


def entries(root: pathlib.Path) -> list[Entry]:
    """What ``root`` holds, one entry per parser, package or client cache."""
    if not root.is_dir():
        return []
    out = []
    for child in sorted(root.iterdir()):
        if child.name == "_packages" and child.is_dir():
            for registry in sorted(p for p in child.iterdir() if p.is_dir()):
                for package in sorted(p for p in registry.iterdir() if p.is_dir()):
                    versions = sorted(p.name for p in package.iterdir() if p.is_dir())
                    out.append(Entry(package, f"{registry.name} package {package.name} ({', '.join(versions)})",
                                     size_of(package)))
        elif child.name in CLIENT_CACHES:
            out.append(Entry(child, CLIENT_CACHES[child.name], size_of(child)))
        elif child.is_dir():
            versions = sorted(p.name for p in child.iterdir() if p.is_dir() and not p.name.startswith("."))
            out.append(Entry(child, f"{child.name} at {', '.join(versions) or 'no release'}", size_of(child)))
    return out


def refuse_unsafe(root: pathlib.Path) -> None:
    """One line when ``root`` is the home folder, the file system's root, or holds the checkout."""
    r = root.resolve()
    checkout = pathlib.Path(__file__).resolve().parents[2]
    if r in (pathlib.Path.home().resolve(), pathlib.Path("/")) or checkout == r or r in checkout.parents:
        raise UsageError(f"{root}: a cache folder that is the home folder or holds the checkout is not removed "
                         "(URLWB_VERSIONS_CACHE, URLWB_CACHE)")


def megabytes(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def run(args) -> int:
    # sizing and removing gigabytes of releases can take a while: a line every few seconds
    with progress.task("urlwb cache clean: the caches", total=len(roots()), beat=True,
                       after=progress.EVERY) as said:
        total = _clean(args, said)
    print(f"{'would free' if args.dry_run else 'freed'} {megabytes(total)}"
          + (" (--dry-run: nothing removed)" if args.dry_run else ""))
    return 0


def _clean(args, said) -> int:
    """Each cache root listed and (unless ``--dry-run``) removed; the bytes it held."""
    total = 0
    for root in roots():
        said.advance(0, note=str(root))
        refuse_unsafe(root)
        found = entries(root)
        if not found:
            print(f"{root}: nothing installed")
            said.advance()
            continue
        size = sum(e.size for e in found)
        total += size
        print(f"{root}: {len(found)} entries, {megabytes(size)}")
        for e in found:
            print(f"  {megabytes(e.size):>12}  {e.path.name:<28} {e.what}")
        if not args.dry_run:
            shutil.rmtree(root)
        said.advance()
    return total
