"""A terminal task as loaded from disk (Harbor layout or the older Terminal-Bench layout), and what
loading a whole suite gives: the tasks that loaded, the ones refused (with why) and the warnings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Env = tuple[tuple[str, str], ...]  # environment variables, in the task file's order


@dataclass(frozen=True)
class Service:
    """A TB1 docker-compose service besides the main one: a sibling container on the attempt's private
    network, reachable from the task's container by `name`."""

    name: str
    environment_dir: Path | None = None  # build context; None with a prebuilt image
    dockerfile: Path | None = None
    image: str | None = None  # a prebuilt image (no build)
    env: Env = ()
    command: tuple[str, ...] | None = None  # None: the image's own CMD
    entrypoint: tuple[str, ...] | None = None  # None: the image's own ENTRYPOINT
    workdir: str | None = None


@dataclass(frozen=True)
class Task:
    id: str  # the task directory's name
    path: Path  # the task directory
    layout: Literal["harbor", "terminal-bench"]
    instruction: str
    category: str = "uncategorized"
    difficulty: str = "unknown"
    tags: tuple[str, ...] = ()
    agent_timeout_sec: float = 600.0
    verifier_timeout_sec: float = 180.0
    build_timeout_sec: float = 600.0
    cpus: float = 1.0
    memory_mb: int = 2048
    allow_internet: bool = False
    environment_dir: Path = field(default=Path("."))  # the docker build context
    dockerfile: Path = field(default=Path("Dockerfile"))  # absolute path of the Dockerfile
    tests_dir: Path = field(default=Path("tests"))  # copied to /tests before verification
    test_script: str = "test.sh"  # relative to tests_dir (harbor) or the task dir (terminal-bench)
    solution_script: Path | None = None  # solution/solve.sh or solution.sh
    # Harbor: [environment] docker_image (a prebuilt image, used instead of building), workdir, env
    docker_image: str | None = None
    workdir: str | None = None
    environment_env: Env = ()  # set in the container for everyone (agent, oracle, verifier)
    verifier_env: Env = ()  # [verifier.env]: only for the tests
    solution_env: Env = ()  # [solution.env]: only for the reference solution
    verifier_user: str | None = None  # None: the image's USER
    agent_user: str | None = None  # None: the image's USER (the oracle runs as this user too)
    # Terminal-Bench 1: the verdict comes from parsing the tests' output with this parser (the loader
    # sets TB1's default, pytest, when task.yaml names none); None for Harbor tasks
    parser_name: str | None = None
    run_tests_in_same_shell: bool = False  # TB1: the tests run in the agent's shell, not a fresh one
    files_in: tuple[tuple[Path, str], ...] = ()  # TB1 compose volumes of the task's own files: copied in at start
    build_offline: bool = False  # build the image with no network (proposed tasks: their Dockerfile is model output)
    services: tuple[Service, ...] = ()  # TB1 compose sibling services, started next to the task's container
    # The suite's families.toml: tasks one command solves up to a path, a name or a value (tasks/families.py);
    # None when the task is in no declared family
    family: str | None = None


def service_task(task: Task, service: Service) -> Task:
    """The task as the image builder sees one of its sibling services: the service's build context,
    Dockerfile or prebuilt image, under the id `<task>.<service>`."""
    return dataclasses.replace(task, id=f"{task.id}.{service.name}", docker_image=service.image, services=(),
                               environment_dir=service.environment_dir or task.path,
                               dockerfile=service.dockerfile or task.path / "Dockerfile")


def scale_timeouts(task: Task, multiplier: float) -> Task:
    """The task with its agent, verifier and build timeouts multiplied (sandbox.timeout_multiplier)."""
    if multiplier == 1.0:
        return task
    return dataclasses.replace(task, agent_timeout_sec=task.agent_timeout_sec * multiplier,
                               verifier_timeout_sec=task.verifier_timeout_sec * multiplier,
                               build_timeout_sec=task.build_timeout_sec * multiplier)


@dataclass(frozen=True)
class RefusedTask:
    """A task directory that could not be loaded; the rest of the suite still runs."""

    id: str
    file: str  # the file at fault (or the task directory)
    reason: str

    def line(self) -> str:
        return f"task {self.id} refused: {self.file}: {self.reason}"

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "file": self.file, "reason": self.reason}


@dataclass(frozen=True)
class Suite:
    path: Path
    tasks: list[Task]
    refused: list[RefusedTask] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # e.g. unknown fields, once per suite
