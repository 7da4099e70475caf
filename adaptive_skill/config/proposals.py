"""New tasks: the novelty loop that proposes them and task proposal inside the engine."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from adaptive_skill.config.base import _Strict
from adaptive_skill.config.sandbox import PullbackConfig


class NoveltyConfig(_Strict):
    """Novelty-driven task proposal (adaptive_skill/novelty, docs/novelty.md). Scores are cosine
    distances (0 same direction, 1 unrelated, up to 2 opposite); the model is `models.proposer`
    (its temperature too) and the embedder `models.embedder`."""

    strategy: Literal["breakthrough", "exhaust", "coverage"] = "breakthrough"
    threshold: float = Field(0.4, gt=0.0, le=2.0)  # breakthrough: stop at a score this high
    exhaust_threshold: float = Field(0.15, ge=0.0, le=2.0)  # exhaust: stop when the rolling mean falls below
    exhaust_window: int = Field(3, ge=1)  # scores in that rolling mean
    clusters: int = Field(5, ge=1)  # coverage: stop once this many distinct clusters are seen
    cluster_similarity: float = Field(0.5, gt=0.0, le=1.0)  # cosine to a cluster's centre to join it
    jump_threshold: float = Field(0.3, gt=0.0, le=2.0)  # distance to the previous task that counts as a jump
    max_iterations: int = Field(20, ge=1)
    max_consecutive_failures: int = Field(3, ge=1)  # model or embedder failures in a row before giving up
    language: Literal["en", "zh"] = "en"
    perturbation: Literal["expert", "domain", "hybrid"] = "expert"
    contrastive: bool = False  # show the recent tasks and ask for something unlike them
    contrastive_window: int = Field(3, ge=1)
    archive: bool = False  # keep the best task per (category, difficulty) cell and point at empty cells
    seed: int | None = None  # perspective sampling; None draws a fresh order each run


class TaskProposalConfig(_Strict):
    """Task proposal inside the engine (off by default; docs/novelty.md, "Proposed tasks in the
    engine"): after each cycle the novelty loop (`novelty`), seeded with the cycle's failures, gives
    ideas; `models.proposer` writes the `tasks_per_cycle` most novel as whole tasks in a sandbox; the
    sound ones, most novel first, join the train pool (at most `max_admitted` a cycle)."""

    enabled: bool = False
    tasks_per_cycle: int = Field(2, ge=1, le=50)  # proposals written as whole tasks and checked, per cycle
    max_admitted: int = Field(1, ge=1, le=50)  # sound proposals admitted per cycle; the rest: rejected ("cap")
    max_turns: int = Field(20, gt=0)  # the proposer's shell turns for one task
    build_timeout_sec: float = Field(300.0, gt=0)  # a proposal's image must build within this
    # cosine over instruction + tests at which a proposal is a near copy of a pool task (tests share boilerplate)
    duplicate_similarity: float = Field(0.9, gt=0.0, le=1.0)
    feasibility: bool = False  # one attempt of models.agent on each admitted task, recorded (never decides)
    batch_slots: int = Field(1, ge=1, le=10)  # proposed tasks per solve batch, next to batch_size suite tasks
    pullback: PullbackConfig = Field(default_factory=lambda: PullbackConfig(
        max_file_bytes=1 << 20, max_total_bytes=4 << 20, max_files=200, max_archive_bytes=64 << 20))
