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
import zlib
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
# Its refs name commits by hash, and a commit's hash holds its time: a ref's oids are read through
# the loose commit and tag objects beside them (_GitIdentity), which are themselves left out.
_GIT_NOISE = re.compile(r"(^|/)\.git/(objects|logs|index$|ORIG_HEAD$|COMMIT_EDITMSG$|FETCH_HEAD$)")
_GIT_REF = re.compile(r"(^|/)\.git/(HEAD|packed-refs|refs/.+)$")
_LOOSE = re.compile(r"(?:^|/)\.git/objects/([0-9a-f]{2})/([0-9a-f]{38})$")
_OID = re.compile(r"\b[0-9a-fA-F]{40}\b")
_WHEN = re.compile(r"\s+\d+\s+[+-]\d{4}\s*$")  # a signature's time and zone
_REF_MAX = 1 << 16
_OBJECT_MAX = 1 << 20
_CHUNK = 1 << 16
_EMPTY = hashlib.sha256(b"").hexdigest()


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


def state_entries(dest: Path, state: CapturedState) -> dict[str, str] | None:
    """What the roots hold, one line per member (its path, then its kind, mode, owner and content
    hash, or a link's target), without times or git's clock-bound files; a git ref names its commit
    by `git_identity`, not by its hash. Read as a stream of tar headers and bytes; nothing is
    extracted. None when a tar cannot be read (or was cut)."""
    entries: dict[str, str] = {}
    refs: dict[str, tuple[str, bytes]] = {}  # a ref file's entry name -> (its mode, its bytes)
    objects: dict[str, tuple[str, bytes]] = {}  # a loose commit or tag object: oid -> (type, body)
    try:
        for root in state.roots:
            if not root.complete:
                return None
            with tarfile.open(dest / root.tar, mode="r|") as tar:
                for member in tar:
                    name = f"{root.path}\0{member.name}"
                    loose = _LOOSE.search(member.name) if member.isfile() else None
                    if loose is not None:
                        found = _git_object(tar, member)
                        if found is not None:
                            objects[loose.group(1) + loose.group(2)] = found
                        continue
                    if _GIT_NOISE.search(member.name):
                        continue
                    mode = f"{member.mode & 0o7777:o} {member.uid}:{member.gid}"  # chmod and chown tasks
                    if member.isfile() and _GIT_REF.search(member.name) and member.size <= _REF_MAX:
                        handle = tar.extractfile(member)
                        refs[name] = (mode, handle.read(_REF_MAX) if handle is not None else b"")
                        continue
                    if member.isfile():
                        content = hashlib.sha256()
                        handle = tar.extractfile(member)
                        while handle is not None and (chunk := handle.read(_CHUNK)):
                            content.update(chunk)
                        entries[name] = f"file {mode} {content.hexdigest()}"
                    elif member.issym() or member.islnk():
                        entries[name] = f"link {member.linkname}"
                    elif member.isdir():
                        entries[name] = f"dir {mode}"
                    else:
                        entries[name] = "special"
    except (OSError, tarfile.TarError, ValueError, zlib.error):
        return None
    identity = _GitIdentity(objects)
    for name, (mode, data) in refs.items():
        text = _OID.sub(lambda m: identity(m.group(0)), data.decode("utf-8", "surrogateescape"))
        entries[name] = f"file {mode} {hashlib.sha256(text.encode('utf-8', 'surrogateescape')).hexdigest()}"
    return entries


def state_digest(dest: Path, state: CapturedState) -> str | None:
    """A hash of `state_entries`: two attempts that left the same files, modes, owners and git
    history (the same trees, messages and refs, whenever they were committed) get the same digest."""
    entries = state_entries(dest, state)
    if entries is None:
        return None
    digest = hashlib.sha256()
    for root in state.roots:
        digest.update(f"root {root.path}\n".encode())
    for name in sorted(entries):
        member = name.split("\0", 1)[1]
        digest.update(f"{member}\0{entries[name]}".encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def changed_paths(dest: Path, state: CapturedState, before_dest: Path,
                  before: CapturedState) -> list[tuple[str, str]] | None:
    """What an attempt changed against the task's untouched files (both read by `state_entries`):
    (path in the container, "added" | "removed" | "changed" | "added-empty"), sorted; "added-empty"
    is a new directory or empty file. None when either state cannot be read."""
    after_entries, before_entries = state_entries(dest, state), state_entries(before_dest, before)
    if after_entries is None or before_entries is None:
        return None
    out = []
    for name in sorted(set(after_entries) | set(before_entries)):
        root, member = name.split("\0", 1)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(root), member))
        now, then = after_entries.get(name), before_entries.get(name)
        if now == then:
            continue
        if then is None:
            empty = now.startswith("dir ") or now.endswith(" " + _EMPTY)
            out.append((path, "added-empty" if empty else "added"))
        else:
            out.append((path, "removed" if now is None else "changed"))
    return out


def _git_object(tar: tarfile.TarFile, member: tarfile.TarInfo) -> tuple[str, bytes] | None:
    """A loose git object's type and body when it is a commit or a tag (what a ref can name and whose
    hash holds a clock); None for blobs and trees (named by their content alone) or a file that is
    not a loose object. At most _OBJECT_MAX bytes are inflated: an agent's file cannot make the
    digest read without bound."""
    handle = tar.extractfile(member)
    if handle is None or member.size > _OBJECT_MAX:
        return None
    inflate = zlib.decompressobj()
    head = inflate.decompress(handle.read(_OBJECT_MAX), 64)
    kind = head.split(b" ", 1)[0]
    if kind not in (b"commit", b"tag"):
        return None
    data = head + inflate.decompress(inflate.unconsumed_tail, _OBJECT_MAX)
    header, nul, body = data.partition(b"\0")
    return (kind.decode(), body) if nul else None


class _GitIdentity:
    """A commit's or tag's identity without its clock: a hash of its tree, its parents' identities,
    its author's and committer's names (not their times) and its message; a tag's of its object's
    identity, type, name, tagger name and message. An oid with no loose object here (a packed one,
    or a blob) stays as it is: the image's own history is the same in every attempt."""

    def __init__(self, objects: dict[str, tuple[str, bytes]]):
        self.objects, self.known = objects, {}

    def __call__(self, oid: str) -> str:
        oid = oid.lower()
        stack = [oid]
        while stack:  # parents first, without recursion: a history may be long
            top = stack[-1]
            if top in self.known or top not in self.objects:
                stack.pop()
                continue
            pending = [o for o in self._links(top) if o not in self.known and o in self.objects and o not in stack]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            self.known[top] = self._identity(top)
        return self.known.get(oid, oid)

    def _links(self, oid: str) -> list[str]:
        kind, body = self.objects[oid]
        heads = body.split(b"\n\n", 1)[0].decode("utf-8", "surrogateescape").splitlines()
        field = "parent " if kind == "commit" else "object "
        return [line[len(field):].strip().lower() for line in heads if line.startswith(field)]

    def _identity(self, oid: str) -> str:
        kind, body = self.objects[oid]
        heads, _, message = body.partition(b"\n\n")
        kept = []
        for line in heads.decode("utf-8", "surrogateescape").splitlines():
            key, _, value = line.partition(" ")
            if key in ("parent", "object"):
                kept.append(f"{key} {self.known.get(value.strip().lower(), value.strip().lower())}")
            elif key in ("author", "committer", "tagger"):
                kept.append(f"{key} {_WHEN.sub('', value)}")
            elif key in ("tree", "type", "tag"):
                kept.append(line)
        text = f"{kind}\n" + "\n".join(kept) + "\n\n" + message.decode("utf-8", "surrogateescape")
        return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:40]


def capture_initial_state(provider, task: Task, dest: Path) -> CapturedState:
    """The task's paths as a fresh container of its image holds them, before any agent: what an
    attempt that changed nothing leaves (kept in `dest`, reused when its manifest is there). Never
    raises: a failure is the returned state's `error`, and is not kept, so a resumed run tries again
    (a Docker hiccup kept would leave the task without the check for good)."""
    kept = load_state(dest)
    if kept is not None and not kept.error:
        return kept
    def failed(what: str, exc: Exception) -> CapturedState:
        return CapturedState(error=f"{what}{type(exc).__name__}: {str(exc)[:200]}")

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
