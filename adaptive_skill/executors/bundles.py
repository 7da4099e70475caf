"""Directories shipped to cluster nodes as content-addressed tar bundles.

A Ray node has neither the driver's suite nor its workspace on disk. The driver packs a directory
into a deterministic tar (sorted entries, no owners or times) named by its SHA-256; a node unpacks
it once under its cache and reuses it for every later attempt with the same content. Because the
bytes and permission bits arrive unchanged, a task's image tag (a hash of its build context) is the
same on every node as on the driver.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

SKIPPED = frozenset({".git"})  # history never matters to an attempt, and a run's .git grows every cycle


@dataclass(frozen=True)
class Bundle:
    digest: str
    data: bytes


def pack(root: Path, skip: frozenset[str] = SKIPPED) -> Bundle:
    """The tree under `root` (symlinks kept as links); top-level names in `skip` are left out."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in _walk(root, skip):
            tar.add(path, arcname=path.relative_to(root).as_posix(), recursive=False, filter=_anonymous)
    data = buffer.getvalue()
    return Bundle(hashlib.sha256(data).hexdigest(), data)


def unpack(bundle: Bundle, cache: Path) -> Path:
    """cache/<digest>, unpacked now unless it already was. Safe when several processes race: each
    unpacks into its own temporary directory and the first rename wins."""
    target = cache / bundle.digest
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{bundle.digest[:16]}.", dir=cache))
    try:
        with tarfile.open(fileobj=io.BytesIO(bundle.data), mode="r") as tar:
            members = _checked(tar.getmembers())
            if hasattr(tarfile, "fully_trusted_filter"):  # Python >= 3.11.4: say so, or 3.14 would strip modes
                tar.extractall(staging, members=members, filter="fully_trusted")
            else:
                tar.extractall(staging, members=members)
        os.chmod(staging, 0o755)  # mkdtemp's 0700 would hide the tree from a build run as another user
        os.rename(staging, target)
    except OSError:
        if not target.is_dir():
            raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _walk(root: Path, skip: frozenset[str]):
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        if here == root:
            dirs[:] = [d for d in dirs if d not in skip]
            files = [f for f in files if f not in skip]
        # A symlink to a directory is listed as a directory but must travel as a link.
        links = sorted(d for d in dirs if (here / d).is_symlink())
        dirs[:] = sorted(d for d in dirs if d not in links)
        for name in sorted([*dirs, *links, *files]):
            yield here / name


def _anonymous(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mtime = 0
    return info



def _checked(members: list[tarfile.TarInfo]) -> list[tarfile.TarInfo]:
    """Refuse what could write outside the target: absolute names, `..`, anything beneath a link,
    devices and fifos. Link targets themselves may point anywhere (a build context can hold an
    absolute symlink; it is only ever sent to docker build). Permission bits stay as packed, since
    they are part of an image's content hash; setuid and setgid do not."""
    links: set[str] = set()
    for member in members:
        parts = Path(member.name).parts
        if member.name.startswith("/") or ".." in parts or not parts:
            raise ValueError(f"bundle entry {member.name!r} would land outside its directory")
        if any("/".join(parts[:depth]) in links for depth in range(1, len(parts))):
            raise ValueError(f"bundle entry {member.name!r} lies beneath a link")
        if member.issym() or member.islnk():
            if member.islnk() and (member.linkname.startswith("/") or ".." in Path(member.linkname).parts):
                raise ValueError(f"bundle hard link {member.name!r} points outside its directory")
            links.add("/".join(parts))
        elif not (member.isfile() or member.isdir()):
            raise ValueError(f"bundle entry {member.name!r} is neither file, directory nor link")
        member.mode &= 0o1777
    return members
