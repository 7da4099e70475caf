"""The real sandbox: one Docker container per attempt, with a persistent shell inside (and, for a
TB1 task with extra compose services, their sibling containers on a private network: services.py).

The container's PID 1 is docker-init reaping for `sleep infinity`; everything else runs through
exec. The persistent shell is one `docker exec` whose attach socket carries stdin and output
(see shell.py), so a command costs a write and a read, not a new exec (~70 ms each).
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import socket
import ssl
import tarfile
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict
from pathlib import Path

from adaptive_skill.sandbox.base import CommandResult, SandboxBase, SandboxError, SandboxInfo, SandboxLimits
from adaptive_skill.sandbox.engine import OWNER_LABEL, SANDBOX_LABEL, connect, current_owner, one_line
from adaptive_skill.sandbox.services import Siblings, SiblingSpec
from adaptive_skill.sandbox.shell import SHELL_ARGV, ShellSession, read_to_end

# `exec`: stderr into stdout (one ordered stream), and coreutils `timeout` kills the command's
# process group when the time is up; a host-side guard covers images without `timeout` and
# processes that escaped the group while holding the output open.
_EXEC_SCRIPT = (
    'exec 2>&1; if [ "$1" != none ] && command -v timeout >/dev/null 2>&1; then '
    'exec timeout -s KILL "$1" bash -c "$2"; fi; exec bash -c "$2"'
)
_EXEC_GUARD_SEC = 5.0
_EXIT_RECORD_SEC = 120.0  # how long an ended exec may go without its exit code recorded (see exit_code)
_SPOOL_BYTES = 64 << 20  # archives bigger than this go to a temporary file
_USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


class DockerSandbox(SandboxBase):
    def __init__(self, image: str, limits: SandboxLimits | None = None, *, workdir: str | None = None,
                 env: dict[str, str] | None = None, labels: dict[str, str] | None = None,
                 name_prefix: str = "adaptive-skill", client=None, user: str | None = None,
                 services: Sequence[SiblingSpec] = ()):
        """`user`: the persistent shell (the agent's commands) runs as this unprivileged user,
        created at start if the image lacks it; `exec` and file copies stay root. `services`:
        sibling containers started first, on a private network with this one (see services.py)."""
        if user is not None and not _USER_NAME.match(user):
            raise ValueError(f"not a valid user name: {user!r}")
        self.image = image
        self.user = user
        self.labels = {**(labels or {}), SANDBOX_LABEL: "1", OWNER_LABEL: current_owner()}
        self.name = f"{name_prefix}-{uuid.uuid4().hex[:12]}"
        self._client = client
        self._container = None
        self.services = tuple(services)
        self._siblings: Siblings | None = None
        super().__init__(limits, workdir, env)

    # -- lifecycle (start, close, with: SandboxBase) --------------------------------------------

    def _open(self) -> None:
        import docker

        try:
            self._client = self._client or connect()
            network = {"network_mode": "bridge" if self.limits.network else "none"}
            if self.services:  # siblings first: the task's container may reach for them at once
                self._siblings = Siblings(self._client, self.name, self.services, self.labels, self.limits)
                self._siblings.start()
                if not self.limits.network:
                    network = self._siblings.join()  # the private network only: no route out
            self._container = self._client.containers.create(
                self.image, entrypoint=["sleep", "infinity"], command=[], init=True, name=self.name,
                labels=self.labels, environment=self.env, working_dir=self.workdir, **network,
                nano_cpus=int(self.limits.cpus * 1e9), mem_limit=f"{self.limits.memory_mb}m",
                memswap_limit=f"{self.limits.memory_mb}m", pids_limit=self.limits.pids,
            )
            if self._siblings is not None and self.limits.network:
                self._siblings.connect(self._container.id)  # the bridge for the outside, and the siblings
            self._container.start()
            if self.user is not None:
                self._add_user(self.user)
            self._shell = ShellSession(_DockerShellBackend(self._client.api, self._container.id, self.user),
                                       self.workdir, kill_orphans=True)
            self._shell.start()
        except docker.errors.DockerException as exc:  # SandboxBase.start closes what was made
            if isinstance(exc, docker.errors.ImageNotFound):
                raise SandboxError(f"image {self.image} is not present; build it first "
                                   "(adaptive-skill images build --suite DIR)") from exc
            raise SandboxError(f"cannot start sandbox {self.name}: {one_line(exc)}") from exc

    def _add_user(self, user: str) -> None:
        # useradd where the image has it; otherwise the passwd and group lines by hand.
        result = self.exec(
            f"id -u {user} >/dev/null 2>&1 || useradd --create-home --shell /bin/bash {user} 2>/dev/null || "
            f"{{ echo \"{user}:x:1000:1000::/home/{user}:/bin/bash\" >> /etc/passwd && "
            f"echo \"{user}:x:1000:\" >> /etc/group && mkdir -p /home/{user} && chown 1000:1000 /home/{user}; }}",
            timeout=60)
        if result.exit_code != 0:
            raise SandboxError(f"cannot create the user {user} in sandbox {self.name}: {result.output.strip()}")

    def _release(self) -> None:
        try:
            if self._shell is not None:
                self._shell.close()
        finally:
            try:
                if self._client is not None:
                    _remove_container(self._client, self.name)
            finally:
                if self._siblings is not None:  # after the task's container: the network is free then
                    self._siblings.close()

    @property
    def image_workdir(self) -> str | None:
        """The working directory commands start in: the sandbox's own, else the image's WORKDIR, as
        the engine reports it (not asked of the container, whose programs the agent may replace)."""
        if self.workdir:
            return self.workdir
        try:
            self._client = self._client or connect()
            return self._client.api.inspect_image(self.image)["Config"].get("WorkingDir") or None
        except Exception:
            return None

    @property
    def info(self) -> SandboxInfo:
        extra = {"limits": asdict(self.limits)}
        if self.services:
            extra["services"] = {spec.name: spec.image for spec in self.services}
        return SandboxInfo(kind="docker", image=self.image, name=self.name, isolated=True, extra=extra)

    # -- commands ------------------------------------------------------------------------------

    @property
    def cwd(self) -> str | None:
        """The persistent shell's working directory after the last command."""
        return self._shell.cwd if self._shell else self.workdir

    def exec(self, command: str, timeout: float | None = None, workdir: str | None = None,
             user: str = "root") -> CommandResult:
        self.start()
        api = self._client.api
        started = time.monotonic()
        limit = "none" if timeout is None else f"{max(timeout, 0.001):.3f}"
        with self._engine_errors("exec"):
            exec_id = api.exec_create(self._container.id, ["bash", "-c", _EXEC_SCRIPT, "exec", limit, command],
                                      user=user, workdir=workdir or self.workdir)["Id"]
            channel = _ExecChannel(api, exec_id)
            guard = None if timeout is None else started + timeout + _EXEC_GUARD_SEC
            output, eof = channel.read_to_end(guard)
            channel.close()
            code = channel.exit_code() if eof else None
        elapsed = time.monotonic() - started
        timed_out = not eof or (timeout is not None and code in (124, 137) and elapsed >= timeout)
        return CommandResult(output=output.decode("utf-8", "replace"), exit_code=None if timed_out else code,
                             timed_out=timed_out, duration_sec=elapsed)

    # -- files ---------------------------------------------------------------------------------

    def copy_in(self, src: Path, dest: str) -> None:
        self.start()
        src, dest = Path(src), _absolute(dest)
        if not src.exists():
            raise FileNotFoundError(src)
        parent, name = posixpath.split(dest)
        result = self.exec(f"mkdir -p -- {_sh_quote(parent)}", timeout=30)
        if result.exit_code != 0:
            raise SandboxError(f"cannot create {parent} in the sandbox: {result.output.strip()}")
        with tempfile.SpooledTemporaryFile(_SPOOL_BYTES) as archive:
            with tarfile.open(fileobj=archive, mode="w") as tar:
                tar.add(src, arcname=name, filter=_owned_by_root)
            archive.seek(0)
            with self._engine_errors(f"copy {src} in"):
                self._container.put_archive(parent, archive)

    def copy_out(self, src: str, dest: Path) -> None:
        stream, stat = self._get_archive(src, "copy", "out of")
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.SpooledTemporaryFile(_SPOOL_BYTES) as archive, \
                tempfile.TemporaryDirectory(dir=dest.parent, prefix=".copy-out-") as tmp:
            with self._engine_errors(f"copy {src} out"):
                for chunk in stream:
                    archive.write(chunk)
            archive.seek(0)
            with tarfile.open(fileobj=archive, mode="r") as tar:
                tar.extractall(tmp, filter=_owned_by_me)
            if not os.path.lexists(Path(tmp) / stat["name"]):
                raise SandboxError(f"{src} in sandbox {self.name} is a link or a special file: not copied")
            _move_into_place(Path(tmp) / stat["name"], dest)


    def read_archive(self, src: str) -> Iterator[bytes]:
        """The raw tar stream of `src`, as the engine sends it: links, devices and modes as they are,
        nothing extracted or followed. Its top member is `src`'s base name."""
        stream, _ = self._get_archive(src, "read", "from")
        with self._engine_errors(f"read {src}"):
            yield from stream

    def _get_archive(self, src: str, verb: str, preposition: str):
        """(tar stream, stat) of `src` from the engine; a missing path or an engine error is a SandboxError."""
        import docker

        self.start()
        try:
            return self._container.get_archive(_absolute(src))
        except docker.errors.NotFound as exc:
            raise SandboxError(f"{src} does not exist in sandbox {self.name}") from exc
        except docker.errors.DockerException as exc:
            raise SandboxError(f"cannot {verb} {src} {preposition} sandbox {self.name}: {one_line(exc)}") from exc

    @contextmanager
    def _engine_errors(self, action: str) -> Iterator[None]:
        """Engine failures (container gone, engine down) as SandboxError, like the rest of the API."""
        import docker
        import requests

        try:
            yield
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise SandboxError(f"cannot {action} in sandbox {self.name}: {one_line(exc)}") from exc


class _DockerShellBackend:
    def __init__(self, api, container_id: str, user: str | None = None):
        self._api = api
        self._container_id = container_id
        self._user = user

    def spawn_shell(self) -> _ExecChannel:
        import docker

        try:
            exec_id = self._api.exec_create(self._container_id, SHELL_ARGV, stdin=True, user=self._user or "")["Id"]
            return _ExecChannel(self._api, exec_id)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"cannot start the sandbox shell: {one_line(exc)}") from exc

    def run_helper(self, script: str, *args: str) -> None:
        import docker

        try:
            exec_id = self._api.exec_create(self._container_id, ["bash", "-c", script, "helper", *args],
                                            user="root")["Id"]
            self._api.exec_start(exec_id)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"cannot signal the sandbox shell: {one_line(exc)}") from exc


class _ExecChannel:
    """A started exec's hijacked socket, demultiplexed (non-tty output comes in framed chunks)."""

    def __init__(self, api, exec_id: str):
        self._api = api
        self._id = exec_id
        wrapped = api.exec_start(exec_id, socket=True)
        self._sock = getattr(wrapped, "_sock", wrapped)  # the SDK wraps the raw socket in SocketIO
        self._wrapped = wrapped
        self._frames = FrameDecoder()
        self._pending = self._frames.feed(_read_ahead(wrapped, self._sock))

    def send(self, data: bytes) -> None:
        self._sock.sendall(data)

    def recv(self, timeout: float) -> bytes | None:
        if self._pending:
            data, self._pending = self._pending, b""
            return data
        end = time.monotonic() + timeout
        while (remaining := end - time.monotonic()) > 0:
            self._sock.settimeout(remaining)
            try:
                data = self._sock.recv(1 << 16)
            except TimeoutError:
                return b""
            except OSError:
                return None
            if not data:
                return None
            payload = self._frames.feed(data)
            if payload:
                return payload
        return b""

    def read_to_end(self, deadline: float | None) -> tuple[bytes, bool]:
        return read_to_end(self.recv, deadline)

    def alive(self) -> bool:
        state = self._state()
        return bool(state and state["Running"])

    def exit_code(self) -> int | None:
        # The stream closes before the engine records the exit (it learns of it from containerd, a
        # moment later; seconds on a busy machine). The exec has ended, so wait for that record:
        # giving up early read as "no exit code", a failed `cat reward.txt`. The bound only guards
        # against an engine that never answers.
        deadline, pause = time.monotonic() + _EXIT_RECORD_SEC, 0.01
        while True:
            state = self._state()
            if state is None:
                return None  # the exec (or its container) is gone
            if not state["Running"]:
                return state["ExitCode"]
            if time.monotonic() >= deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _state(self) -> dict | None:
        import docker

        try:
            return self._api.exec_inspect(self._id)
        except docker.errors.NotFound:
            return None

    def close(self) -> None:
        for closer in (lambda: self._sock.shutdown(socket.SHUT_RDWR), self._sock.close, self._wrapped.close):
            try:
                closer()
            except OSError:
                pass


class FrameDecoder:
    """The payload of a non-tty exec stream: frames of an 8-byte header (stream id, 3 zero bytes,
    big-endian length) and that many bytes. Fed whatever a read returned: a header or a payload may
    be split across reads at any byte. stdout and stderr are joined in the order they came."""

    def __init__(self) -> None:
        self._header = bytearray()
        self._left = 0  # payload bytes still due in the current frame

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        i, n = 0, len(data)
        while i < n:
            if self._left:
                take = min(self._left, n - i)
                out += data[i:i + take]
                i += take
                self._left -= take
            else:
                need = 8 - len(self._header)
                self._header += data[i:i + need]
                i += need
                if len(self._header) == 8:
                    self._left = int.from_bytes(self._header[4:8], "big")
                    self._header.clear()
        return bytes(out)


def _read_ahead(wrapped, sock) -> bytes:
    """The stream bytes the SDK already took off the socket while it read the 101 response.

    docker-py parses the response's headers through http.client, whose buffered reader takes up to
    8 KiB per read, and then hands out the raw socket. The engine sends the headers and then starts
    the command; when the command's first frames arrive before the client reads the headers (a
    short command such as `cat reward.txt` on a busy machine), one read takes headers and frames
    together, the frames stay in that buffer, and a reader of the raw socket never sees them: the
    output is empty and the exit code 0 (docker/docker-py#3332). So drain the buffer first, without
    waiting: what it holds, then what the socket has right now. A docker-py that no longer keeps
    the response on the socket is refused rather than read with a hole in it."""
    reader = getattr(getattr(getattr(wrapped, "_response", None), "raw", None), "_fp", None)
    reader = getattr(reader, "fp", None)
    if not hasattr(reader, "read1"):
        raise SandboxError("this docker SDK does not expose the exec stream's read buffer; "
                           "the output of short commands could be lost (docker/docker-py#3332)")
    chunks = []
    sock.setblocking(False)
    try:
        # Stop when nothing more is there right now: http.client's SocketIO returns b"", TLS raises.
        with suppress(BlockingIOError, ssl.SSLWantReadError):
            while chunk := reader.read1(1 << 16):
                chunks.append(chunk)
    finally:
        sock.setblocking(True)
    return b"".join(chunks)


def _remove_container(client, name: str) -> None:
    import docker

    try:
        client.api.remove_container(name, force=True, v=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:
        if exc.status_code != 409:  # 409: a removal is already in progress
            raise SandboxError(f"cannot remove container {name}: {one_line(exc)}") from exc


def _absolute(path: str) -> str:
    if not path.startswith("/"):
        raise ValueError(f"sandbox paths must be absolute: {path!r}")
    return posixpath.normpath(path)


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def _owned_by_me(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    # A link is never recreated on the host (it would be followed there: /proc/self/environ, ~/.ssh);
    # the "data" filter refuses paths escaping the destination, devices and setuid bits; files
    # become ours, not the container's uids.
    if member.issym() or member.islnk():
        return None
    member = tarfile.data_filter(member, path)
    return member.replace(uid=os.getuid(), gid=os.getgid(), uname=None, gname=None, deep=False)


def _move_into_place(src: Path, dest: Path) -> None:
    """Files replace files; a directory merges into an existing directory."""
    if src.is_dir() and not src.is_symlink() and dest.is_dir() and not dest.is_symlink():
        shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
    elif dest.is_dir() and not dest.is_symlink():
        raise SandboxError(f"cannot replace the directory {dest} with a file")
    else:
        os.replace(src, dest)
