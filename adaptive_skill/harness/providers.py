"""Where attempts run: a provider prepares a task's environment (builds its image) and opens a
sandbox for one attempt. It tracks open sandboxes so Ctrl-C can close them all at once."""

from __future__ import annotations

import threading
from typing import Protocol

from adaptive_skill.config import SandboxConfig
from adaptive_skill.protocols import Sandbox
from adaptive_skill.sandbox.base import SandboxLimits
from adaptive_skill.tasks.model import Task


class NetworkRefused(Exception):
    """The task asks for the network and the config forbids it: the attempt does not run."""


class SandboxProvider(Protocol):
    kind: str

    def prepare(self, task: Task) -> None:
        """Make the task runnable (build its image); raises ImageBuildError on failure."""
        ...

    def open(self, task: Task, labels: dict[str, str] | None = None, *, offline: bool = False) -> Sandbox:
        """A sandbox for one attempt of `task`; `offline`: no network whatever the task asks (the
        label-free estimate's checks)."""
        ...

    def close_all(self) -> None: ...


class _Tracking:
    def __init__(self) -> None:
        self._open: set[Sandbox] = set()
        self._lock = threading.Lock()

    def _track(self, sandbox: Sandbox) -> Sandbox:
        with self._lock:
            self._open.add(sandbox)
        original_close = sandbox.close

        def close() -> None:
            with self._lock:
                self._open.discard(sandbox)
            original_close()

        sandbox.close = close  # type: ignore[method-assign]
        return sandbox

    def close_all(self) -> None:
        with self._lock:
            sandboxes = list(self._open)
        for sandbox in sandboxes:
            sandbox.close()


class DockerProvider(_Tracking):
    kind = "docker"

    def __init__(self, config: SandboxConfig, client=None, force_build: bool = False):
        super().__init__()
        from adaptive_skill.sandbox.engine import connect

        self.config = config
        self.client = client or connect()
        self.force_build = force_build
        self._images: dict[str, str] = {}
        self._service_images: dict[str, dict[str, str]] = {}  # task id -> sibling service -> image tag
        self._lock_images = threading.Lock()

    def prepare(self, task: Task) -> None:
        from adaptive_skill.sandbox.images import build_task_environment

        with self._lock_images:  # one build at a time: parallel builds only fight over 2 cores
            if task.id in self._images:
                return
            built = build_task_environment(task, self.client, force=self.force_build)
            self._images[task.id], self._service_images[task.id] = built.tag, built.services

    def open(self, task: Task, labels: dict[str, str] | None = None, *, offline: bool = False) -> Sandbox:
        from adaptive_skill.sandbox.docker_sandbox import DockerSandbox
        from adaptive_skill.sandbox.services import SiblingSpec

        if task.allow_internet and not self.config.allow_network and not offline:
            raise NetworkRefused(f"task {task.id} needs the network (allow_internet) and the config forbids it "
                                 "(sandbox.allow_network: false)")
        self.prepare(task)
        limits = SandboxLimits(cpus=task.cpus, memory_mb=task.memory_mb, pids=self.config.pids_limit,
                               network=task.allow_internet and self.config.allow_network and not offline)
        tags = self._service_images[task.id]
        services = [SiblingSpec(s.name, tags[s.name], dict(s.env), s.command, s.entrypoint, s.workdir)
                    for s in task.services]
        sandbox = DockerSandbox(self._images[task.id], limits, client=self.client, workdir=task.workdir,
                                env=dict(task.environment_env), services=services,
                                labels={"adaptive-skill.task": task.id, **(labels or {})})
        return self._track(sandbox)


class LocalProvider(_Tracking):
    """Runs on the host in a temporary directory. Isolates nothing; opt-in only."""

    kind = "local"

    def __init__(self, config: SandboxConfig):
        super().__init__()
        self.config = config

    def prepare(self, task: Task) -> None:
        return None

    def open(self, task: Task, labels: dict[str, str] | None = None, *, offline: bool = False) -> Sandbox:
        from adaptive_skill.sandbox.local_sandbox import LocalSandbox

        if task.services:
            raise ValueError(f"task {task.id} has sibling services ({', '.join(s.name for s in task.services)}); "
                             "the local sandbox cannot start them (use sandbox.kind: docker)")
        return self._track(LocalSandbox())


def make_provider(config: SandboxConfig, force_build: bool = False) -> SandboxProvider:
    if config.kind == "local":
        return LocalProvider(config)
    return DockerProvider(config, force_build=force_build)
