"""``make oracles`` decides what to install from the Debian packages themselves, and an oracle is
ready only when it can start (its manifest's probe).

A stand-in ``dpkg-query`` on PATH answers for the packages: the commands a folder needs can all be
on the machine while a library it needs is not (``perl`` is everywhere, ``liburi-perl`` is not).
``--dry-run`` says what would be installed without running apt-get."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from urlwb.oracles import manifests

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "build_oracles.py"


def fake_dpkg(bin_dir: pathlib.Path, installed: set[str]) -> None:
    """A ``dpkg-query -W -f=${Status} PKG`` that knows only ``installed``."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "dpkg-query"
    names = " ".join(sorted(installed))
    script.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        for last; do :; done
        for p in {names}; do
          if [ "$p" = "$last" ]; then printf 'install ok installed'; exit 0; fi
        done
        echo "dpkg-query: no packages found matching $last" >&2
        exit 1
    """))
    script.chmod(0o755)


def manifest(root: pathlib.Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "oracles.toml").write_text(textwrap.dedent(text), encoding="utf-8")


def dry_run(tmp_path, installed: set[str]) -> list[str]:
    fake_dpkg(tmp_path / "bin", installed)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    r = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", "--root", str(tmp_path / "oracles")],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.fixture
def folders(tmp_path):
    root = tmp_path / "oracles"
    # a library wanted although every command the folder needs is on PATH
    manifest(root, "lib", """
        requires = ["sh"]
        apt = ["liburlwb-test-perl", "liburlwb-present"]
        apt_for = { sh = "dash" }
        probe = ["sh", "-c", "exit 3"]
        [[oracle]]
        name = "lib-one"
        command = ["sh", "-c", "true"]
    """)
    # a toolchain package wanted only while its command is missing
    manifest(root, "tool", """
        requires = []
        apt_for = { no-such-command-urlwb = "urlwb-toolchain" }
        [[oracle]]
        name = "tool-one"
        command = ["sh", "-c", "true"]
    """)
    return root


def test_a_library_is_installed_when_dpkg_says_so_though_the_commands_are_there(tmp_path, folders):
    lines = dry_run(tmp_path, installed={"liburlwb-present"})
    assert "lib/: apt: would install: liburlwb-test-perl; found liburlwb-present" in lines
    # sh is on PATH, so its package is not wanted even though dpkg does not list it
    assert not any("dash" in line for line in lines)
    assert "tool/: apt: would install: urlwb-toolchain" in lines


def test_nothing_is_wanted_when_dpkg_lists_every_package(tmp_path, folders):
    lines = dry_run(tmp_path, installed={"liburlwb-test-perl", "liburlwb-present", "urlwb-toolchain"})
    assert "lib/: apt: found liburlwb-test-perl liburlwb-present" in lines
    assert "tool/: apt: found urlwb-toolchain" in lines
    assert not any("would install" in line for line in lines)


def test_the_shipped_perl_folder_wants_its_modules_though_perl_is_there(tmp_path):
    """The case that left perl-uri unable to start: perl present, liburi-perl absent."""
    fake_dpkg(tmp_path / "bin", installed={"perl"})
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    r = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", "--only", "perl", "--only", "curl"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "perl/: apt: would install: liburi-perl libjson-xs-perl" in r.stdout
    assert "curl/: apt: would install: libcurl4-openssl-dev" in r.stdout


def test_a_failing_probe_makes_the_oracle_skipped_with_its_reason(tmp_path, folders):
    spec = manifests.read_folder(folders / "lib" / "oracles.toml").specs[0]
    assert spec.unready is None  # its command is on PATH and it needs no build output
    assert spec.skip.startswith("probe `sh -c 'exit 3'` failed (status 3")
    assert "make oracles" in spec.skip and "liburlwb-test-perl" in spec.skip and "\n" not in spec.skip


def test_a_passing_probe_is_ready_and_an_oracle_adds_its_own(tmp_path):
    manifest(tmp_path, "ok", """
        probe = ["sh", "-c", "exit 0"]
        [[oracle]]
        name = "ok-one"
        command = ["sh", "-c", "true"]
        [[oracle]]
        name = "ok-two"
        command = ["sh", "-c", "true"]
        probe = ["sh", "-c", "echo missing module >&2; exit 1"]
    """)
    one, two = manifests.read_folder(tmp_path / "ok" / "oracles.toml").specs
    assert one.skip is None
    assert two.skip.startswith("probe `sh -c 'echo missing module >&2; exit 1'` failed (status 1: missing module)")


@pytest.mark.parametrize("text, reason", [
    ("probe = 'perl'\n[[oracle]]\nname = 'a'\ncommand = ['x']\n", "probe must be a non-empty list"),
    ("apt_for = ['perl']\n[[oracle]]\nname = 'a'\ncommand = ['x']\n", "apt_for must be a table"),
])
def test_a_bad_probe_or_apt_for_is_a_manifest_error(tmp_path, text, reason):
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "oracles.toml").write_text(text)
    f = manifests.read_folder(tmp_path / "z" / "oracles.toml")
    assert f.error and reason in f.error


def test_every_shipped_folder_that_loads_a_library_declares_a_probe():
    """Perl, Ruby, PHP and the C build load what Debian packages separately from the command."""
    probed = {f.path.name for f in manifests.discover() if f.specs and all(s.probe for s in f.specs)}
    assert {"perl", "ruby", "php", "curl"} <= probed
