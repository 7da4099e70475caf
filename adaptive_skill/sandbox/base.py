"""What every sandbox shares: limits, command results, errors, and the lifecycle. The Sandbox
protocol itself is in adaptive_skill/protocols.py."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Protocol

from adaptive_skill.sandbox.cleanup import open_sandboxes


class SandboxError(RuntimeError):
    """The sandbox itself failed (engine error, container gone, shell would not start)."""


@dataclass(frozen=True)
class SandboxLimits:
    cpus: float = 1.0
    memory_mb: int = 2048
    pids: int = 512
    network: bool = False  # off unless the task allows it


@dataclass
class CommandResult:
    output: str  # full combined stdout+stderr, kept for the trajectory
    exit_code: int | None  # None when the command was killed by the timeout
    timed_out: bool = False
    duration_sec: float = 0.0
    shell_restarted: bool = False  # the persistent shell died (exit, set -e, kill) and was replaced

    def for_model(self, limit: int = 10_000) -> str:
        """Output cut to `limit` characters, keeping head and tail, for the model's context."""
        return truncate_middle(self.output, limit)


def truncate_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit // 2
    tail = limit - head
    omitted = len(text) - head - tail
    return f"{text[:head]}\n[... {omitted} characters omitted ...]\n{text[-tail:]}"


@dataclass
class SandboxInfo:
    """What a sandbox reports about itself, for trajectories and events."""

    kind: str
    image: str | None = None
    name: str | None = None
    isolated: bool = True
    extra: dict = field(default_factory=dict)


class _Shell(Protocol):
    """What the lifecycle needs of its persistent shell (sandbox/shell.py, ShellSession, which
    imports this module for CommandResult, so it is named here by shape, not imported)."""

    pid: int  # 0 before the shell started

    def run(self, command: str, timeout: float | None = None) -> CommandResult: ...


class SandboxBase(ABC):
    """The lifecycle every sandbox shares: started once (lazily by the first command), closed once
    however many threads ask, a context manager, and registered so that a signal or the process's
    exit closes it. Subclasses open their environment in `_open` (setting `self._shell`) and free
    it in `_release`; a failed `_open` is closed at once."""

    name: str

    def __init__(self, limits: SandboxLimits | None, workdir: str | None, env: dict[str, str] | None):
        self.limits = limits or SandboxLimits()
        self.workdir = workdir
        self.env = dict(env or {})
        self._shell: _Shell | None = None
        self._lock = threading.Lock()
        self._started = self._closed = False
        open_sandboxes.install_signal_handlers()  # here too: start() may run in a worker thread

    @abstractmethod
    def _open(self) -> None:
        """Create the environment and set `self._shell`."""

    @abstractmethod
    def _release(self) -> None:
        """Free what `_open` created; called once, also after a failed `_open`."""

    def start(self) -> None:
        if self._closed:
            raise SandboxError(f"sandbox {self.name} is closed")
        if self._started:  # also when _open itself runs a command (DockerSandbox adds a user)
            return
        self._started = True
        open_sandboxes.add(self)  # before anything exists: a Ctrl-C during creation still cleans up
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Remove everything the sandbox created; safe to call twice, from any thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._release()
        finally:
            open_sandboxes.discard(self)

    def __enter__(self) -> SandboxBase:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def shell_pid(self) -> int | None:
        """The persistent shell's pid where it runs, as it reported it on start (the agent never had a
        say in it); None before the shell started."""
        return self._shell.pid if self._shell is not None and self._shell.pid else None

    def run(self, command: str, timeout: float | None = None) -> CommandResult:
        """Run in the persistent shell; on timeout the shell kills the command's process group."""
        self.start()
        assert self._shell is not None
        try:
            return self._shell.run(command, timeout)
        except Exception as exc:
            if self._closed:
                raise SandboxError(f"sandbox {self.name} was closed during the command") from exc
            raise
