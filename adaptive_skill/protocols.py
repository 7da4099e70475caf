"""Every seam of the product in one place: the protocols the rooms talk through.

    LLM          a model for one role (agent, judge, evolver, proposer): llm/ implements it
    Sandbox      the only place LLM-written commands run: sandbox/ implements it
    Agent        solves one task in one sandbox (oracle, nop, the terminal agent): harness/agents.py
    StepMonitor  watches an agent step by step and may intervene: spiral/monitor.py
    Embedder     texts to unit-length vectors: embed/
    Executor     runs a batch of attempts (local threads, Ray nodes): executors/
    Evolver      rewrites the skill library (single, team, structured): evolve/

The protocols are structural: an implementation does not import this module, only the code that
holds one does. This module sits below every room, so the data types that cross a seam are named
here for type checkers only; nothing of the project is imported at run time, which is what keeps it
at the bottom of the layers. Each of those types lives in a module that imports nothing which imports
this one (Intervention, the monitor's answer, is defined here), so no chain of imports, type-only
ones included, comes back here (tests/test_layers.py checks both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    from pydantic import BaseModel

    from adaptive_skill.evolve.outcome import EvolveOutcome
    from adaptive_skill.executors.base import AttemptJob
    from adaptive_skill.harness.results import AgentOutcome, AttemptResult
    from adaptive_skill.llm.base import LLMResponse
    from adaptive_skill.sandbox.base import CommandResult, SandboxInfo
    from adaptive_skill.tasks.model import Task
    from adaptive_skill.trajectory import StepRecord, Trajectory

Schema = TypeVar("Schema", bound="BaseModel")


@runtime_checkable
class LLM(Protocol):
    model: str
    supports_tools: bool  # native tool calling; otherwise callers use a text protocol

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 task_id: str | None = None) -> LLMResponse: ...

    def complete_json(self, messages: list[dict[str, Any]], schema: type[Schema], *,
                      task_id: str | None = None) -> Schema: ...


@runtime_checkable
class Sandbox(Protocol):
    """One isolated environment for one task attempt. `run` goes through a persistent shell (cd and
    exported variables survive, as in a terminal); `exec` starts a fresh process outside that shell
    (the verifier uses it, so a broken agent shell cannot get in its way)."""

    def start(self) -> None: ...

    def run(self, command: str, timeout: float | None = None) -> CommandResult:
        """Run in the persistent shell; on timeout kill the command's process group."""
        ...

    def exec(self, command: str, timeout: float | None = None, workdir: str | None = None,
             user: str = "root") -> CommandResult:
        """Run `bash -c command` in a fresh process, outside the persistent shell; as root unless `user`
        says otherwise ("" is the image's own USER)."""
        ...

    @property
    def shell_pid(self) -> int | None:
        """The persistent shell's pid where it runs (as the shell itself reported it on start), None
        before it started."""
        ...

    def copy_in(self, src: Path, dest: str) -> None:
        """Copy a host file or directory to `dest` (a path inside the sandbox; parents created)."""
        ...

    def copy_out(self, src: str, dest: Path) -> None:
        """Copy a file or directory from the sandbox to the host path `dest`."""
        ...

    def read_archive(self, src: str) -> Iterator[bytes]:
        """The raw tar stream of `src` (top member: its base name), nothing extracted or followed."""
        ...

    def close(self) -> None:
        """Remove everything the sandbox created; safe to call twice."""
        ...

    @property
    def info(self) -> SandboxInfo:
        """What it is (kind, image, name) and whether it is `isolated` from this machine."""
        ...

    def __enter__(self) -> Sandbox: ...

    def __exit__(self, *exc: object) -> None: ...


class Agent(Protocol):
    name: str

    def solve(self, task: Task, sandbox: Sandbox) -> AgentOutcome: ...


@dataclass
class Intervention:
    """What a monitor asks for after a step. `context` (when set) replaces what the model sees
    next; the trajectory on disk keeps every message regardless."""

    action: Literal["nudge", "restart", "rollback", "escalate", "terminate"]
    detector: str
    message: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)
    context: list[dict[str, Any]] | None = None


class StepMonitor(Protocol):
    def observe(self, step: StepRecord, trajectory: Trajectory,
                context: list[dict[str, Any]]) -> Intervention | None: ...


@runtime_checkable
class Embedder(Protocol):
    name: str
    paraphrase_similarity: float  # cosine above which two texts of this embedder usually mean the same
    # optional: surface_form = True for an embedder of words, not meaning (the lexical one): the skill
    # placed in the prompt is then ranked by word TF-IDF instead of its cosine (agent/inline.py)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Shape (len(texts), dim), float32, rows of unit length (all-zero for empty text)."""
        ...


ResultCallback = Callable[["AttemptResult", bool], None]  # (result, was it loaded from disk)
StartCallback = Callable[["Task"], None]


class Executor(Protocol):
    kind: str

    def run(self, tasks: Sequence[Task], job: AttemptJob, *, on_start: StartCallback | None = None,
            on_result: ResultCallback | None = None,
            should_stop: Callable[[], bool] | None = None) -> list[AttemptResult]:
        """Results in the order of `tasks`; finished ones under job.results_dir are loaded, not rerun.
        Once `should_stop()` is true no further attempt starts and the list may be shorter."""
        ...


class Evolver(Protocol):
    def evolve(self, workspace: Path, observations: Path, out_dir: Path, *, history: list[str] | None = None,
               drafts: Path | None = None, task_id: str = "evolve") -> EvolveOutcome:
        """Change the skill library in `workspace` (prompts/, skills/, memory/) from what
        `observations` shows; the rules are enforced before this returns."""
        ...
