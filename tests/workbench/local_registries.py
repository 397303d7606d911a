"""Registries served from a folder, so that installing a user's package needs no network: an npm
registry over loopback HTTP (the packument and tarball routes ``npm install`` and ``npm view``
read, https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md), a PyPI ``--find-links``
folder of wheels and sdists, and a Maven repository folder (``file://``, with the ``.sha1`` and
``.md5`` files that ``--strict-checksums`` checks and the ``maven-metadata.xml`` that lists
releases). Each package is made here from a few files, in milliseconds (no npm pack, no build).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.server
import io
import json
import pathlib
import tarfile
import threading
import urllib.parse
import zipfile


# --- npm ---------------------------------------------------------------------------------------

def npm_tarball(folder: pathlib.Path, manifest: dict, files: dict[str, str]) -> pathlib.Path:
    """``NAME-VERSION.tgz`` in ``folder``, as ``npm pack`` lays it out (``package/...``)."""
    path = folder / f"{manifest['name']}-{manifest['version']}.tgz"
    with tarfile.open(path, "w:gz") as tar:
        for name, text in {"package.json": json.dumps(manifest), **files}.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"package/{name}")
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return path


class NpmRegistry:
    """An npm registry over http://127.0.0.1:PORT/ serving the tarballs of ``folder`` (each
    ``*.tgz`` made by :func:`npm_tarball`); ``requests`` lists the paths asked for."""

    def __init__(self, folder: pathlib.Path):
        self.folder = folder
        self.requests: list[str] = []
        registry = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = urllib.parse.unquote(self.path.split("?")[0])
                registry.requests.append(path)
                body, kind = registry.answer(path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def packument(self, name: str) -> dict | None:
        versions = {}
        for tgz in sorted(self.folder.glob("*.tgz")):
            with tarfile.open(tgz) as tar:
                manifest = json.loads(tar.extractfile("package/package.json").read())
            if manifest["name"] != name:
                continue
            data = tgz.read_bytes()
            manifest["dist"] = {
                "tarball": f"{self.url}{name}/-/{tgz.name}",
                "shasum": hashlib.sha1(data).hexdigest(),
                "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
            }
            if "scripts" in manifest and any(k in manifest["scripts"] for k in ("preinstall", "install", "postinstall")):
                manifest["hasInstallScript"] = True
            versions[manifest["version"]] = manifest
        if not versions:
            return None
        latest = sorted(versions, key=lambda v: tuple(int(x) for x in v.split(".")))[-1]
        return {"name": name, "dist-tags": {"latest": latest}, "versions": versions}

    def answer(self, path: str) -> tuple[bytes | None, str]:
        if "/-/" in path:
            f = self.folder / path.rsplit("/", 1)[-1]
            return (f.read_bytes() if f.is_file() else None), "application/octet-stream"
        doc = self.packument(path.strip("/"))
        return (None if doc is None else json.dumps(doc).encode()), "application/json"


@contextlib.contextmanager
def npm_served(folder: pathlib.Path, name: str, releases: dict[str, dict[str, str]]):
    """A registry over ``folder`` serving package ``name`` at each release (version -> its
    files, ``index.js`` its main), closed after."""
    for version, files in releases.items():
        npm_tarball(folder, {"name": name, "version": version, "main": "index.js"}, files)
    served = NpmRegistry(folder)
    try:
        yield served
    finally:
        served.close()


# --- PyPI --------------------------------------------------------------------------------------

def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel(folder: pathlib.Path, name: str, version: str, files: dict[str, str]) -> pathlib.Path:
    """A pure-Python wheel (PEP 427) of ``files`` in ``folder``."""
    dist = f"{name.replace('-', '_')}-{version}"
    meta = {f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
            f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: urlwb-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    path = folder / f"{dist}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(path, "w") as z:
        for arc, text in {**files, **meta}.items():
            data = text.encode("utf-8")
            z.writestr(arc, data)
            record.append(f"{arc},{_record_hash(data)},{len(data)}")
        record.append(f"{dist}.dist-info/RECORD,,")
        z.writestr(f"{dist}.dist-info/RECORD", "\n".join(record) + "\n")
    return path


#: an in-tree PEP 517 backend (no setuptools to fetch: the test runs with no index) that runs
#: the sdist's setup.py, as setuptools' backend does, then builds the wheel of ``src``
BACKEND = '''
import base64, hashlib, os, pathlib, runpy, zipfile
def get_requires_for_build_wheel(config_settings=None):
    return []
def prepare_metadata_for_build_wheel(directory, config_settings=None):
    d = pathlib.Path(directory) / "{dist}.dist-info"
    d.mkdir()
    (d / "METADATA").write_text("Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n")
    return d.name
def build_wheel(directory, config_settings=None, metadata_directory=None):
    runpy.run_path("setup.py")
    path = pathlib.Path(directory) / "{dist}-py3-none-any.whl"
    files = {{"{module}/__init__.py": open("src/__init__.py", "rb").read(),
             "{dist}.dist-info/METADATA": b"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
             "{dist}.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}}
    record = []
    with zipfile.ZipFile(path, "w") as z:
        for arc, data in files.items():
            z.writestr(arc, data)
            h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(arc + ",sha256=" + h + "," + str(len(data)))
        record.append("{dist}.dist-info/RECORD,,")
        z.writestr("{dist}.dist-info/RECORD", "\\n".join(record) + "\\n")
    return path.name
'''


def sdist(folder: pathlib.Path, name: str, version: str, module: str, source: str, setup_py: str) -> pathlib.Path:
    """An sdist only (no wheel) whose build runs ``setup_py``."""
    dist = f"{name.replace('-', '_')}-{version}"
    files = {
        "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        "pyproject.toml": '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
        "backend.py": BACKEND.format(dist=dist, name=name, version=version, module=module),
        "setup.py": setup_py,
        "src/__init__.py": source,
    }
    path = folder / f"{dist}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for arc, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"{dist}/{arc}")
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return path


# --- Maven -------------------------------------------------------------------------------------

def _with_sums(path: pathlib.Path, data: bytes) -> None:
    path.write_bytes(data)
    path.with_name(path.name + ".sha1").write_text(hashlib.sha1(data).hexdigest())
    path.with_name(path.name + ".md5").write_text(hashlib.md5(data).hexdigest())


def maven_artifact(repo: pathlib.Path, group: str, artifact: str, version: str, files: dict[str, bytes]) -> None:
    """``GROUP:ARTIFACT:VERSION`` (a jar of ``files`` and its pom) in the repository folder
    ``repo``, and the artifact's ``maven-metadata.xml`` listing every version there."""
    d = repo / group.replace(".", "/") / artifact
    (d / version).mkdir(parents=True, exist_ok=True)
    jar = io.BytesIO()
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n")
        for arc, data in files.items():
            z.writestr(arc, data)
    _with_sums(d / version / f"{artifact}-{version}.jar", jar.getvalue())
    pom = (f'<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">'
           f"<modelVersion>4.0.0</modelVersion><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
           f"<version>{version}</version></project>\n")
    _with_sums(d / version / f"{artifact}-{version}.pom", pom.encode())
    versions = sorted((p.name for p in d.iterdir() if p.is_dir()), key=lambda v: [int(x) for x in v.split(".")])
    meta = (f"<metadata><groupId>{group}</groupId><artifactId>{artifact}</artifactId><versioning>"
            f"<latest>{versions[-1]}</latest><release>{versions[-1]}</release><versions>"
            + "".join(f"<version>{v}</version>" for v in versions) + "</versions></versioning></metadata>\n")
    _with_sums(d / "maven-metadata.xml", meta.encode())
