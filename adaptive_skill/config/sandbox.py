"""Where attempts run and within what limits: the sandbox, the per-attempt and per-run limits, the
executor (local threads or Ray nodes), and what may come back out of a model's sandbox."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from adaptive_skill.config.base import _Strict


class SandboxConfig(_Strict):
    kind: Literal["docker", "local"] = "docker"  # local isolates nothing: opt-in only
    command_timeout_sec: float = Field(120.0, gt=0)
    output_limit_chars: int = Field(10_000, ge=200)  # what the model sees; the trajectory keeps all
    pids_limit: int = Field(512, ge=16)
    allow_network: bool = False  # never on unless the task also allows it
    keep_containers: bool = False
    timeout_multiplier: float = Field(1.0, gt=0)  # scales every task's agent, verifier and build timeouts


class LimitsConfig(_Strict):
    """Per attempt and per run. None means no limit."""

    max_steps: int = Field(40, gt=0)
    max_tokens_per_task: int | None = Field(None, gt=0)
    max_cost_per_task: float | None = Field(None, gt=0)
    max_tokens_per_run: int | None = Field(None, gt=0)
    max_cost_per_run: float | None = Field(None, gt=0)
    max_wall_time_sec: float | None = Field(None, gt=0)
    max_concurrent_llm_calls: int = Field(4, gt=0)


class ExecutorConfig(_Strict):
    """Where task attempts run (docs/ray.md). `local`: `workers` threads on this machine. `ray`: each
    attempt is a Ray task on a cluster node with a Docker engine; results and trajectories come back here."""

    kind: Literal["local", "ray"] = "local"
    # ray: `auto` joins the cluster this machine is part of (`ray start`), `local` starts a private one
    # here with `workers` CPUs, `ray://host:10001` connects through Ray Client, `host:6379` to a head node.
    address: str = Field("auto", min_length=1)
    max_in_flight: int | None = Field(None, gt=0)  # ray: attempts submitted at once; None: the cluster's CPUs
    max_retries: int = Field(3, ge=0)  # ray: re-runs of an attempt whose worker process or node died
    node_resource: str | None = "docker"  # ray: custom resource that marks nodes with a Docker engine
    node_cache_dir: str = "~/.cache/adaptive-skill/ray"  # ray, on each node: unpacked tasks and workspaces
    forward_env: list[str] = Field(default_factory=list)  # ray: driver variables the workers get (API keys)

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        if value in ("auto", "local") or value.startswith("ray://") or re.fullmatch(r"[\w.\-]+:\d+", value):
            return value
        raise ValueError("expected auto, local, ray://host:port or host:port")


class PullbackConfig(_Strict):
    """What of a model's sandbox directory may come back (adaptive_skill/sandbox/pullback.py): the
    evolver's /workspace (evolver.pullback), the proposer's /task (task_proposal.pullback)."""

    max_file_bytes: int = Field(1 << 20, gt=0)  # one file
    max_total_bytes: int = Field(20 << 20, gt=0)  # all files together
    max_files: int = Field(2000, gt=0)  # files and directories
    max_archive_bytes: int = Field(512 << 20, gt=0)  # the raw stream; past it nothing comes back
