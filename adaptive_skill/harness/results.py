"""What one task attempt produced, and how it failed if it did."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

FailureMode = Literal[
    "unresolved",        # everything ran; the tests said no
    "build_error",       # the task image did not build
    "sandbox_error",     # the container could not be started or broke down
    "agent_timeout",     # the agent ran out of time (the tests still ran)
    "agent_error",       # the agent crashed or gave up (the tests still ran)
    "verifier_timeout",  # the tests ran out of time
    "verifier_error",    # the tests produced no reward, or the verifier's ground was tampered with
    "unverified",        # the task has no tests: only the judge can say
    "network_refused",   # the task needs the network and the config forbids it: nothing ran
]
FAILURE_MODES: tuple[str, ...] = FailureMode.__args__  # type: ignore[attr-defined]


@dataclass
class AgentOutcome:
    status: Literal["completed", "timeout", "error"]
    detail: str = ""
    trajectory_path: str | None = None


@dataclass
class VerifyResult:
    passed: bool
    reward: float | None
    failure_mode: FailureMode | None  # None when passed
    output: str = ""
    duration_sec: float = 0.0


@dataclass
class AttemptResult:
    task_id: str
    agent: str
    passed: bool
    reward: float | None
    failure_mode: FailureMode | None
    category: str = ""
    difficulty: str = ""
    detail: str = ""  # the error or the tail of the agent's / verifier's output
    durations: dict[str, float] = field(default_factory=dict)
    trajectory_path: str | None = None
    # Of sandbox/programs.PROGRAMS, which the container had before the agent started ({"installed":
    # [...], "missing": [...]}); None where the sandbox did not start or the probe could not run.
    programs: dict[str, list[str]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AttemptResult:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})
