"""Debian base images without a registry: debootstrap a root file system and `docker import` it.

Task Dockerfiles start `FROM debian:bookworm-slim` (or `debian:bookworm`). Where no registry can be
reached those images cannot be pulled, so we make one from Debian packages, fetched from the
mirror the host's apt already uses, and tag it with whichever of the names are missing. An image
that exists is never replaced: on a machine with the real images nothing happens.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from adaptive_skill.errors import UserError

BASE_IMAGE = "adaptive-skill/debian-base:bookworm"
BASE_IMAGE_NAMES = ("debian:bookworm-slim", "debian:bookworm")
SUITE = "bookworm"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
MIRROR_ENV = "ADAPTIVE_SKILL_DEBIAN_MIRROR"
_IMPORT_CHANGES = [
    'CMD ["bash"]',
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LABEL adaptive-skill.base=debootstrap-minbase-bookworm",
]


def ensure_base_images(client, names: Sequence[str] = BASE_IMAGE_NAMES, *, mirror: str | None = None,
                       log: Callable[[str], None] | None = None) -> list[str]:
    """Make every name in `names` exist, building the Debian base if needed; return the names created.

    All names get the same bookworm minbase image. Safe to call from several processes at once.
    Progress goes to `log` (default: stderr), since a first build takes a minute."""
    log = log or _to_stderr
    missing = [name for name in names if not image_exists(client, name)]
    if not missing:
        return []
    with _exclusive_lock("adaptive-skill-base-image.lock"):
        missing = [name for name in names if not image_exists(client, name)]  # another process may have won
        if not missing:
            return []
        if not image_exists(client, BASE_IMAGE):
            log(f"{', '.join(missing)} not present and no registry to pull from: "
                f"building {BASE_IMAGE} from Debian packages (about a minute)")
            build_base_image(client, mirror=mirror, log=log)
        base = client.images.get(BASE_IMAGE)
        for name in missing:
            base.tag(*_split_name(name))
            log(f"tagged {BASE_IMAGE} as {name}")
    return missing


def build_base_image(client, *, mirror: str | None = None, log: Callable[[str], None] | None = None,
                     name: str = BASE_IMAGE) -> None:
    """debootstrap --variant=minbase bookworm, then import the tree as `name`."""
    log = log or _to_stderr
    if shutil.which("debootstrap") is None:
        raise UserError("cannot build the Debian base image: install debootstrap: apt-get install debootstrap")
    if os.geteuid() != 0:
        raise UserError("cannot build the Debian base image: debootstrap must run as root "
                        "(run `adaptive-skill images build` as root once, or provide debian:bookworm-slim)")
    mirror = mirror or os.environ.get(MIRROR_ENV) or host_debian_mirror()
    # /var/tmp: the tree is a few hundred MB, too much for a tmpfs /tmp on some machines.
    work = Path(tempfile.mkdtemp(prefix="adaptive-skill-debootstrap-",
                                 dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    log_file = Path(tempfile.gettempdir()) / "adaptive-skill-debootstrap.log"
    try:
        rootfs = work / "rootfs"
        log(f"debootstrap --variant=minbase {SUITE} from {mirror} (log: {log_file})")
        with open(log_file, "wb") as out:
            done = subprocess.run(["debootstrap", "--variant=minbase", SUITE, str(rootfs), mirror],
                                  stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            last = _last_line(log_file)
            raise UserError(f"debootstrap from {mirror} failed (exit {done.returncode}): {last} "
                            f"(full log: {log_file}; set {MIRROR_ENV} to use another mirror)")
        _trim(rootfs)
        archive = work / "rootfs.tar"
        subprocess.run(["tar", "--numeric-owner", "-C", str(rootfs), "-cf", str(archive), "."], check=True)
        repository, tag = _split_name(name)
        # A file path, not a stream: the SDK then waits for the import without an HTTP timeout.
        client.api.import_image(src=str(archive), repository=repository, tag=tag, changes=_IMPORT_CHANGES)
        log(f"imported {name}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def host_debian_mirror(apt_dir: Path = Path("/etc/apt")) -> str:
    """The Debian mirror of the host's apt sources (deb822 *.sources, or one-line sources.list).

    Prefers an entry for the bookworm suite itself, then any URI ending in /debian; security and
    updates archives are skipped. Falls back to deb.debian.org (e.g. on an Ubuntu host)."""
    entries = list(_deb822_entries(apt_dir)) + list(_one_line_entries(apt_dir))
    for uri, suites in entries:
        if SUITE in suites and "security" not in uri:
            return uri
    for uri, _ in entries:
        if uri.rstrip("/").endswith("/debian"):
            return uri
    return DEFAULT_MIRROR


def image_exists(client, name: str) -> bool:
    import docker

    try:
        client.images.get(name)
        return True
    except docker.errors.ImageNotFound:
        return False


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _split_name(name: str) -> tuple[str, str]:
    repository, colon, tag = name.rpartition(":")
    if not colon or "/" in tag:  # no tag, or the colon belonged to a registry's port
        return name, "latest"
    return repository, tag


def _deb822_entries(apt_dir: Path) -> Iterator[tuple[str, list[str]]]:
    for path in sorted((apt_dir / "sources.list.d").glob("*.sources")):
        for stanza in _read(path).split("\n\n"):
            fields: dict[str, str] = {}
            key = None
            for line in stanza.splitlines():
                if line.startswith("#") or not line.strip():
                    continue
                if line[0] in " \t" and key:  # continuation of a multi-line field
                    fields[key] += " " + line.strip()
                elif ":" in line:
                    key, _, value = line.partition(":")
                    key = key.strip().lower()
                    fields[key] = value.strip()
            if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes").lower() == "no":
                continue
            for uri in fields.get("uris", "").split():
                yield uri, fields.get("suites", "").split()


def _one_line_entries(apt_dir: Path) -> Iterator[tuple[str, list[str]]]:
    paths = [apt_dir / "sources.list", *sorted((apt_dir / "sources.list.d").glob("*.list"))]
    for path in paths:
        for line in _read(path).splitlines():
            words = line.split("#", 1)[0].split()
            if not words or words[0] != "deb":
                continue
            words = words[1:]
            if words and words[0].startswith("["):  # options: [arch=amd64 signed-by=...]
                while words and not words[0].endswith("]"):
                    words = words[1:]
                words = words[1:]
            if len(words) >= 2:
                yield words[0], [words[1]]


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _trim(rootfs: Path) -> None:
    """What the official images leave out too: downloaded packages and apt lists."""
    for pattern in ("var/cache/apt/archives/*.deb", "var/lib/apt/lists/*_*"):
        for path in rootfs.glob(pattern):
            path.unlink(missing_ok=True)


def _last_line(path: Path) -> str:
    lines = [line for line in _read(path).splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"


@contextmanager
def _exclusive_lock(name: str) -> Iterator[None]:
    with open(Path(tempfile.gettempdir()) / name, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
