"""What an attempt left behind, kept for the label-free estimate (observe/checks.py).

After the agent stops (its leftover processes killed) and before any test file is copied in, the
directories the task works in are read out of the container as the Docker engine tars them: the
task's working directory and every absolute path the instruction names. Each is kept as its raw tar
stream under the attempt's state directory, never extracted on this machine: the checks unpack it
in a fresh container of the task's image (whose programs the agent never touched). A manifest
(state.json) says which path each tar holds, its size, and whether the byte limit cut it.

The agent is root in its container and everything under these paths is its writing: links are kept
as links (nothing is followed), a path the size limit cuts is marked so, and nothing here runs a
program of the agent's container: the working directory is the task's or the image's, the tars are
the engine's.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import tarfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from adaptive_skill.files import read_json, write_json_atomic
from adaptive_skill.protocols import Sandbox
from adaptive_skill.tasks.model import Task

MANIFEST = "state.json"
STATE_MAX_BYTES = 8 << 20  # per attempt, over all its paths
MAX_ROOTS = 8
# Paths the instruction may name whose whole tree is the system, not the task's work (and where the
# tests, solution and reward live): never captured as a root.
SYSTEM = frozenset({"/", "/bin", "/sbin", "/lib", "/lib64", "/usr", "/usr/bin", "/usr/sbin", "/usr/lib",
                    "/usr/local", "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib", "/usr/share",
                    "/etc", "/var", "/var/lib", "/proc", "/sys", "/dev", "/run", "/boot", "/home"})
FORBIDDEN = ("/tests", "/solution", "/logs", "/proc", "/sys", "/dev", "/run", "/skills", "/oracle")
_PATH = re.compile(r"(?<![\w.~$/-])(/[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)*)/?")
_PLAIN = re.compile(r"^/[A-Za-z0-9_.+@/-]{0,255}$")
# Of a git directory, what changes with every commit's clock or the index's stat data, not with what
# was done: left out of the state's digest, so that two attempts that made the same commit agree.
_GIT_NOISE = re.compile(r"(^|/)\.git/(objects|logs|index$|ORIG_HEAD$|COMMIT_EDITMSG$|FETCH_HEAD$)")
_CHUNK = 1 << 16


@dataclass
class StateRoot:
    path: str  # absolute, in the container
    tar: str  # file name beside the manifest
    bytes: int = 0
    complete: bool = True  # False: the byte limit cut the stream


@dataclass
class CapturedState:
    roots: list[StateRoot] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # named paths that did not exist
    error: str | None = None
    digest: str | None = None  # of what the roots hold (state_digest)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> CapturedState:
        return cls(roots=[StateRoot(**r) for r in data.get("roots", [])], missing=list(data.get("missing", [])),
                   error=data.get("error"), digest=data.get("digest"))


def named_paths(instruction: str) -> list[str]:
    """The absolute paths an instruction names, normalised, in order, each once."""
    seen: list[str] = []
    for match in _PATH.finditer(instruction):
        path = posixpath.normpath(match.group(1).rstrip("."))
        if path not in seen:
            seen.append(path)
    return seen


def allowed_path(path: str) -> bool:
    """A path an attempt's state may keep and a check may look at: plain, not a system directory,
    not the verifier's or the harness's."""
    return (bool(_PLAIN.match(path)) and ".." not in path.split("/") and path not in SYSTEM
            and not any(path == f or path.startswith(f + "/") for f in FORBIDDEN))


def state_roots(instruction: str, workdir: str | None) -> list[str]:
    """The task's working directory, then each path the instruction names that is not inside an
    earlier one; system directories and the verifier's places are never roots."""
    roots: list[str] = []
    for path in ([posixpath.normpath(workdir)] if workdir else []) + named_paths(instruction):
        if not allowed_path(path) or any(path == r or path.startswith(r + "/") for r in roots):
            continue
        roots = [r for r in roots if not r.startswith(path + "/")] + [path]  # a named parent covers its children
        if len(roots) >= MAX_ROOTS:
            break
    return roots


def container_workdir(sandbox: Sandbox, task: Task) -> str | None:
    """The task's working directory: its own setting, else the image's WORKDIR as the engine reports
    it; never asked of the container (the agent may have replaced its shell and programs)."""
    return task.workdir or getattr(sandbox, "image_workdir", None)


def capture_state(sandbox: Sandbox, task: Task, dest: Path, limit: int = STATE_MAX_BYTES) -> CapturedState:
    """Read the task's paths out of `sandbox` into `dest` (tars and the manifest). Never raises: a
    failure is the manifest's `error`, and the estimate then has no state to look at."""
    dest.mkdir(parents=True, exist_ok=True)
    state = CapturedState()
    budget = limit
    try:
        for index, root in enumerate(state_roots(task.instruction, container_workdir(sandbox, task))):
            record = StateRoot(path=root, tar=f"{index}.tar")
            target = dest / record.tar
            try:
                stream = sandbox.read_archive(root)
                with open(target, "wb") as out:
                    for chunk in stream:
                        if record.bytes + len(chunk) > budget:
                            out.write(chunk[: budget - record.bytes])
                            record.bytes, record.complete = budget, False
                            break
                        out.write(chunk)
                        record.bytes += len(chunk)
            except Exception as exc:  # a path that does not exist, or the engine refused it
                target.unlink(missing_ok=True)
                if "does not exist" in str(exc):
                    state.missing.append(root)
                    continue
                raise
            budget -= record.bytes
            state.roots.append(record)
            if budget <= 0:
                break
        state.digest = state_digest(dest, state)
    except Exception as exc:
        state.error = f"{type(exc).__name__}: {exc}"[:300]
    write_json_atomic(dest / MANIFEST, state.to_dict())
    return state


def load_state(dest: Path) -> CapturedState | None:
    """The manifest of a kept state; None when there is none (or it cannot be read)."""
    data = read_json(dest / MANIFEST, None)
    if not isinstance(data, dict):
        return None
    try:
        return CapturedState.from_dict(data)
    except (TypeError, ValueError):
        return None


def state_digest(dest: Path, state: CapturedState) -> str | None:
    """A hash of what the roots hold: each member's path, kind, mode, owner and content (a link's
    target), without times or git's clock-bound files. Read as a stream of tar headers and bytes; nothing is
    extracted. None when a tar cannot be read (or was cut)."""
    digest = hashlib.sha256()
    try:
        for root in state.roots:
            if not root.complete:
                return None
            digest.update(f"root {root.path}\n".encode())
            entries = []
            with tarfile.open(dest / root.tar, mode="r|") as tar:
                for member in tar:
                    if _GIT_NOISE.search(member.name):
                        continue
                    mode = f"{member.mode & 0o7777:o} {member.uid}:{member.gid}"  # chmod and chown tasks
                    if member.isfile():
                        content = hashlib.sha256()
                        handle = tar.extractfile(member)
                        while handle is not None and (chunk := handle.read(_CHUNK)):
                            content.update(chunk)
                        what = f"file {mode} {content.hexdigest()}"
                    elif member.issym() or member.islnk():
                        what = f"link {member.linkname}"
                    elif member.isdir():
                        what = f"dir {mode}"
                    else:
                        what = "special"
                    entries.append(f"{member.name}\0{what}")
            for entry in sorted(entries):
                digest.update(entry.encode("utf-8", "surrogateescape") + b"\n")
    except (OSError, tarfile.TarError, ValueError):
        return None
    return digest.hexdigest()


def capture_initial_state(provider, task: Task, dest: Path) -> CapturedState:
    """The task's paths as a fresh container of its image holds them, before any agent: what an
    attempt that changed nothing leaves (kept in `dest`, reused when its manifest is there). Never
    raises: a failure is the manifest's `error`."""
    kept = load_state(dest)
    if kept is not None:
        return kept
    def failed(what: str, exc: Exception) -> CapturedState:
        state = CapturedState(error=f"{what}{type(exc).__name__}: {str(exc)[:200]}")
        dest.mkdir(parents=True, exist_ok=True)
        write_json_atomic(dest / MANIFEST, state.to_dict())
        return state

    try:
        sandbox = provider.open(task, {"adaptive-skill.role": "initial-state"}, offline=True)
    except Exception as exc:
        return failed("no sandbox: ", exc)
    try:
        sandbox.start()
        for source, target in task.files_in:  # as an attempt starts (harness/attempt.py)
            sandbox.copy_in(source, target)
        return capture_state(sandbox, task, dest)
    except Exception as exc:
        return failed("", exc)
    finally:
        sandbox.close()
