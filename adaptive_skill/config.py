"""EvolveConfig: the one validated configuration object, loaded from YAML and passed down.

Loading is strict: unknown keys, wrong types and out-of-range values are errors that name the
file, the key path and, where known, the line. `${VAR}` and `${VAR:-default}` expand from the
environment so API keys never sit in config files; values from secret-looking variables and
every `api_key` are redacted whenever a config is written out.
"""

from __future__ import annotations

import os
import re
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from adaptive_skill.errors import ConfigError

REDACTED = "<redacted>"
_ROSTER_FILE = "team_roster.yaml"  # the team evolver's default members, packaged beside this module
_ENV_PATTERN = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ModelConfig(_Strict):
    """One LLM role. `model` is a litellm model name, e.g. `anthropic/claude-sonnet-4-5` or
    `local/smollm2-135m` for the embedded offline model."""

    model: str = Field("local/smollm2-135m", min_length=1)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(2048, gt=0)
    api_base: str | None = None
    api_key: str | None = None
    timeout_sec: float = Field(120.0, gt=0)
    max_retries: int = Field(4, ge=0, le=20)
    seed: int | None = None  # sampling seed, where the provider takes one (the gate sets one per round)
    # How the agent talks to this model: `auto` is the model's own (an API model's native tool calls
    # where litellm knows them; an embedded model's as measured per model, docs/llm.md), `tools`
    # native tool calls, `text` the fenced-block text protocol. `protocol_demo` sends the text
    # protocol's worked example before each task (null: as measured for the model; API models never).
    protocol: Literal["auto", "tools", "text"] = "auto"
    protocol_demo: bool | None = None
    # The structured evolver's worked example (one example question and its reply) before its
    # question (null: as measured for the model, docs/llm.md; API models never). Only the evolver reads it.
    evolver_demo: bool | None = None
    # The first submit of a task attempt is answered with CHECK_FIRST (look at the result, then
    # submit again) instead of ending it: for a model that submits after one unchecked command (the
    # 1.5B, docs/results.md run 8). Off unless measured to help the model; only the agent reads it.
    check_before_submit: bool = False
    # The first submit is answered with what the attempt's commands wrote (each file a redirection or tee
    # named: `ls -ld` and its first lines, agent/written.py) instead of a request to look: the run-9
    # follow-up for the 1.5B (docs/results.md). Off unless measured to help the model.
    show_before_submit: bool = False

    @field_validator("api_key", "api_base")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value or None  # `${KEY:-}` with KEY unset means "not configured"


class EmbedderConfig(_Strict):
    """`lexical` needs nothing; `sentence-transformers` needs the [embed] extra; anything else
    is a litellm embedding model name."""

    model: str = Field("lexical", min_length=1)
    dimensions: int = Field(512, gt=0)
    api_base: str | None = None
    api_key: str | None = None
    timeout_sec: float = Field(60.0, gt=0)

    _empty_is_unset = field_validator("api_key", "api_base")(ModelConfig._empty_is_unset.__func__)


class ModelsConfig(_Strict):
    agent: ModelConfig = Field(default_factory=ModelConfig)
    judge: ModelConfig = Field(default_factory=ModelConfig)
    evolver: ModelConfig = Field(default_factory=ModelConfig)
    proposer: ModelConfig = Field(default_factory=lambda: ModelConfig(temperature=0.7))
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)


class PathsConfig(_Strict):
    """Relative paths are resolved against the directory of the config file."""

    workspace: Path = Path("workspace")  # the seed workspace copied into each run
    suite: Path = Path("benchmarks/terminal-core")
    runs_dir: Path = Path("runs")


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


class GatingConfig(_Strict):
    """The holdout gate: a sequential paired test on task-level differences (adaptive_skill.gating;
    the defaults come from benchmarks/perf/bench_gating.py, figures in docs/engine.md)."""

    enabled: bool = True
    # verifier: the tests' reward (the judge only for tasks without tests, or when a verifier gave
    # none); judge: the label-free judge score for every task.
    score: Literal["judge", "verifier"] = "verifier"
    effect: float = Field(0.10, gt=0.0, le=1.0)  # the improvement told apart from the same-size regression (0-1)
    accept_at: float = Field(2.5, gt=0.0)  # log-likelihood ratio at which the change is accepted
    reject_at: float = Field(2.25, gt=0.0)  # ... rejected at -reject_at, rising to 0 at max_rounds
    min_task_sd: float = Field(0.10, gt=0.0, le=1.0)  # floor on the between-task sd of the change's effect
    min_rounds: int = Field(2, ge=1)
    max_rounds: int = Field(30, ge=1)  # the cap: no decision by then is a rejection
    identical_rounds: int = Field(3, ge=2)  # every pair repeated this often unchanged: more rounds add nothing
    temperature: float = Field(0.7, ge=0.0, le=2.0)  # the agent's sampling temperature in gate rounds (seeded)
    # The judge is scored against the verifier on holdout; a warning when it disagrees on more than
    # this share of at least `judge_min_attempts` labelled attempts in a cycle.
    judge_max_disagreement: float = Field(0.3, ge=0.0, le=1.0)
    judge_min_attempts: int = Field(12, ge=1)
    # false: holdout attempts the verifier scored are not judged (no judge check), which halves a gate
    # round's cost with an embedded judge; the judge still scores what the verifier could not.
    judge_check: bool = True

    @model_validator(mode="after")
    def _rounds(self) -> GatingConfig:
        if self.min_rounds > self.max_rounds:
            raise ValueError("min_rounds must not exceed max_rounds")
        return self


class SpiralDetectorConfig(_Strict):
    """Shared by every spiral detector: whether it runs and how much one firing adds to the risk."""

    enabled: bool = True
    weight: float = Field(1.0, ge=0.0)


class ExactRepetitionConfig(SpiralDetectorConfig):
    window: int = Field(8, ge=2)  # steps looked back
    repeats: int = Field(3, ge=2)  # same normalised action with the same result this often


class SemanticRepetitionConfig(SpiralDetectorConfig):
    weight: float = Field(0.6, ge=0.0)
    window: int = Field(6, ge=2)
    min_similar: int = Field(2, ge=1)  # earlier steps in the window at least `similarity` alike
    # Cosine at which two steps count as the same intent; None: the embedder's own level (the
    # lexical one scores paraphrases far lower than a neural model does).
    similarity: float | None = Field(None, gt=0.0, le=1.0)


class AlternationConfig(SpiralDetectorConfig):
    max_period: int = Field(3, ge=2)  # A,B,A,B is period 2; A,B,C,A,B,C period 3
    cycles: int = Field(3, ge=2)  # full periods in a row over actions and their results
    file_cycles: int = Field(2, ge=2)  # X,Y,X,Y versions of one file (edit and revert)


class ParameterTweakConfig(SpiralDetectorConfig):
    window: int = Field(24, ge=4)  # steps looked back
    rounds: int = Field(4, ge=2)  # re-runs of one check after a setting changed, with no better result


class IntentRepetitionConfig(SpiralDetectorConfig):
    window: int = Field(12, ge=2)  # steps looked back
    install_repeats: int = Field(3, ge=2)  # failed installs of the same packages, whatever the tool or spelling
    search_repeats: int = Field(4, ge=2)  # searches in a row that found nothing
    poll_repeats: int = Field(5, ge=2)  # polls of the same service without an answer (a slow start is fine)
    stall_repeats: int = Field(3, ge=2)  # polls of a job whose answer moved, then stopped moving


class RepeatedErrorsConfig(SpiralDetectorConfig):
    repeats: int = Field(3, ge=2)  # consecutive failing steps with the same error


class StagnationConfig(SpiralDetectorConfig):
    weight: float = Field(0.6, ge=0.0)
    window: int = Field(12, ge=3)
    repeats: int = Field(3, ge=2)  # the same failure this often within the window ...
    patience: int = Field(4, ge=1)  # ... spread over at least this many steps of other work


class MonologueConfig(SpiralDetectorConfig):
    weight: float = Field(0.8, ge=0.0)
    max_silent_turns: int = Field(3, ge=1)  # assistant turns in a row without an action
    self_reference_window: int = Field(5, ge=1)
    self_reference_hits: int = Field(2, ge=1)  # "planning how to plan" this often in the window


class GoalDriftConfig(SpiralDetectorConfig):
    weight: float = Field(0.5, ge=0.0)
    window: int = Field(8, ge=2)
    threshold: float = Field(0.2, ge=0.0, le=1.0)  # mean relevance to the instruction below this


class UnaskedWorkConfig(SpiralDetectorConfig):
    weight: float = Field(0.8, ge=0.0)
    window: int = Field(10, ge=2)  # acting steps looked back
    share: float = Field(0.6, gt=0.0, le=1.0)  # at least this share of them chores the task did not ask for
    kinds: int = Field(3, ge=1)  # ... of at least this many kinds (type checking, CI, Docker, packaging ...)


class SpiralDetectorsConfig(_Strict):
    exact_repetition: ExactRepetitionConfig = Field(default_factory=ExactRepetitionConfig)
    semantic_repetition: SemanticRepetitionConfig = Field(default_factory=SemanticRepetitionConfig)
    alternation: AlternationConfig = Field(default_factory=AlternationConfig)
    repeated_errors: RepeatedErrorsConfig = Field(default_factory=RepeatedErrorsConfig)
    intent_repetition: IntentRepetitionConfig = Field(default_factory=IntentRepetitionConfig)
    parameter_tweak: ParameterTweakConfig = Field(default_factory=ParameterTweakConfig)
    stagnation: StagnationConfig = Field(default_factory=StagnationConfig)
    monologue: MonologueConfig = Field(default_factory=MonologueConfig)
    goal_drift: GoalDriftConfig = Field(default_factory=GoalDriftConfig)
    unasked_work: UnaskedWorkConfig = Field(default_factory=UnaskedWorkConfig)


class SpiralLimitsConfig(_Strict):
    """Hard stops of the monitor, on top of the agent's own limits. None means no limit."""

    max_steps: int | None = Field(None, gt=0)
    max_wall_time_sec: float | None = Field(None, gt=0)
    max_tokens: int | None = Field(None, gt=0)
    max_cost: float | None = Field(None, gt=0)


SpiralAction = Literal["nudge", "restart", "rollback", "escalate", "terminate"]


class SpiralConfig(_Strict):
    """The loop monitor (adaptive_skill/spiral, docs/spiral.md). Detections add weight * score to a
    risk that decays each step; at `threshold` the next rung of `ladder` is taken."""

    enabled: bool = True
    threshold: float = Field(1.0, gt=0.0)
    decay: float = Field(0.6, ge=0.0, lt=1.0)  # share of the risk kept from one step to the next
    cooldown_steps: int = Field(2, ge=1)  # steps the agent gets to react before the next rung
    calm_steps: int = Field(10, ge=1)  # steps without a detection that step the ladder back down
    poll_tolerance: float = Field(2.0, ge=1.0)  # repeat counts stretch this much for commands that wait
    ladder: list[SpiralAction] = Field(
        default_factory=lambda: ["nudge", "restart", "rollback", "escalate", "terminate"], min_length=1)
    detectors: SpiralDetectorsConfig = Field(default_factory=SpiralDetectorsConfig)
    limits: SpiralLimitsConfig = Field(default_factory=SpiralLimitsConfig)


class JudgeConfig(_Strict):
    """The label-free judge (observe/). Owned by the observe work; the engine reads these."""

    categories: list[str] = Field(default_factory=lambda: [
        "build", "debug", "data-processing", "git", "system-administration", "security",
        "file-operations", "text-processing", "networking", "scripting", "other"])
    pass_threshold: float = Field(7.0, ge=0.0, le=10.0)  # score >= this counts as "likely solved"
    compression_budget_tokens: int = Field(2000, ge=200)
    # Checks of the final state (observe/checks.py): each train attempt's paths are kept as it left
    # them, the judge's model writes read-only checks from the instruction, they run on a copy in a
    # fresh container, and the judge reads what they printed. Docker only.
    check_state: bool = False
    check_timeout_sec: float = Field(10.0, gt=0, le=120)


class SkillRulesConfig(_Strict):
    max_body_chars: int = Field(2000, gt=0)
    require_verification: bool = True


class TeamMemberConfig(_Strict):
    """One profile of the team evolver's roster (docs/team.md)."""

    name: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=40)
    expertise: str = Field(min_length=1, max_length=300)
    background: str = Field("", max_length=1000)
    areas: list[str] = Field(default_factory=list)  # judge categories: choose the leader, measure diversity


def _default_roster() -> list[TeamMemberConfig]:
    """The six profiles of team_roster.yaml, checked like a config's own `members:` list."""
    rows = yaml.safe_load((files("adaptive_skill") / _ROSTER_FILE).read_text(encoding="utf-8"))
    return [TeamMemberConfig.model_validate(row) for row in rows]


class TeamConfig(_Strict):
    """The team evolver (evolver.mode: team, docs/team.md). None for a threshold: the embedder's own level."""

    size: int = Field(4, ge=2)  # leader included
    turns: int = Field(3, ge=1, le=10)  # K: the ceiling of discussion, idea and writing turns
    min_turn_novelty: float | None = Field(None, ge=0.0, le=1.0)  # a turn below this ends the stage
    duplicate_similarity: float | None = Field(None, gt=0.0, le=1.0)  # cosine at which a skill repeats another
    freshness: float | None = Field(0.5, ge=0.0, le=1.0)  # share of collaborators new to the leader
    diversity: float | None = Field(0.5, ge=0.0, le=1.0)  # share of collaborators from other areas
    invite: bool = True  # consult one non-member for one discussion turn
    top_ideas: int = Field(3, ge=1)  # candidates kept for the novelty review
    idea_rounds: int = Field(2, ge=1)  # idea generation restarts after a discarded draft
    digest_chars: int = Field(8000, ge=1000)  # observations shown to the team
    members: list[TeamMemberConfig] = Field(default_factory=_default_roster)

    @model_validator(mode="after")
    def _roster(self) -> TeamConfig:
        names = [m.name for m in self.members]
        if len(set(names)) != len(names):
            raise ValueError("team member names must be unique")
        if self.size > len(self.members):
            raise ValueError(f"team size {self.size} exceeds the roster of {len(self.members)} members")
        return self


class PullbackConfig(_Strict):
    """What of a model's sandbox directory may come back (adaptive_skill/sandbox/pullback.py): the
    evolver's /workspace (evolver.pullback), the proposer's /task (task_proposal.pullback)."""

    max_file_bytes: int = Field(1 << 20, gt=0)  # one file
    max_total_bytes: int = Field(20 << 20, gt=0)  # all files together
    max_files: int = Field(2000, gt=0)  # files and directories
    max_archive_bytes: int = Field(512 << 20, gt=0)  # the raw stream; past it nothing comes back


class ExploreConfig(_Strict):
    """The explore phase (off by default; docs/engine.md, "Exploring and distilling"): after the judge,
    each task of the batch that did not pass is attempted again, up to `passes` times, with the agent
    sampling at `temperature`, until one attempt passes; its worked commands go to the evolver
    (observations/<task>/explored.json). The 1.5B's failures recur at a low temperature, so its
    trajectories there never hold their fix; a hotter sample sometimes does (docs/results.md, run 16).
    `reflect`: each explore attempt is also told what the task's attempt before it did wrong (its
    failed commands and why, agent/reflect.py), after its instruction: for a model that does not
    recover from an error inside an attempt (the 1.5B on git, docs/results.md)."""

    passes: int = Field(0, ge=0, le=10)
    temperature: float = Field(1.0, gt=0.0, le=2.0)
    reflect: bool = False


class EvolverConfig(_Strict):
    # docs/engine.md, "The evolver"; distill calls no model: it writes the passed attempts' worked commands
    mode: Literal["single", "team", "structured", "distill"] = "single"
    max_turns: int = Field(30, gt=0)
    # mode structured: independent questions (seeded sampling) asked in turn until a reply passes the
    # rules; for a small model whose replies the rules mostly refuse (docs/engine.md, "The evolver")
    samples: int = Field(1, ge=1, le=8)
    pullback: PullbackConfig = Field(default_factory=PullbackConfig)
    team: TeamConfig = Field(default_factory=TeamConfig)


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


class ReviewConfig(_Strict):
    """People's ratings from `adaptive-skill review` (docs/review.md) in the engine's observe phase."""

    # An escalated batch trajectory that people rated gets their verdict in place of the judge's
    # (the judge's is kept beside it); an event `human_verdict` marks each one.
    human_verdicts: bool = False
    # With human_verdicts: stop the run before observing a batch whose escalated trajectories nobody
    # rated yet (event `review_wait`, status stopped); rate them, then `evolve --resume`.
    wait_for_review: bool = False

    @model_validator(mode="after")
    def _needs_verdicts(self) -> ReviewConfig:
        if self.wait_for_review and not self.human_verdicts:
            raise ValueError("wait_for_review needs human_verdicts: true")
        return self


class EvolveConfig(_Strict):
    # The engine's switches (seed table, defaults kept).
    trajectory_only: bool = True
    max_skills: int = Field(5, ge=0)
    evolve_skills: bool = True
    evolve_prompts: bool = True
    evolve_memory: bool = True
    memory_budget_tokens: int = Field(600, ge=0)  # memory entries in the agent's system prompt (docs/engine.md)
    # The best-matching skill's body placed in the agent's system prompt, within this many tokens
    # (0: none; the agent reads skills with read_skill). For models that rarely read skills (docs/engine.md).
    skill_in_prompt_tokens: int = Field(0, ge=0)
    protect_skills: bool = False
    solver_proposed: bool = False
    prompt_only: bool = False
    batch_size: int = Field(10, gt=0)
    holdout_ratio: float = Field(0.2, ge=0.0, lt=1.0)
    egl_threshold: float = Field(0.05, ge=0.0)
    egl_window: int = Field(3, gt=0)
    # Run shape.
    max_cycles: int = Field(10, gt=0)
    seed: int = 0
    workers: int = Field(2, gt=0)

    paths: PathsConfig = Field(default_factory=PathsConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    gating: GatingConfig = Field(default_factory=GatingConfig)
    spiral: SpiralConfig = Field(default_factory=SpiralConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    skills: SkillRulesConfig = Field(default_factory=SkillRulesConfig)
    evolver: EvolverConfig = Field(default_factory=EvolverConfig)
    explore: ExploreConfig = Field(default_factory=ExploreConfig)
    novelty: NoveltyConfig = Field(default_factory=NoveltyConfig)
    task_proposal: TaskProposalConfig = Field(default_factory=TaskProposalConfig)
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)
    review: ReviewConfig = Field(default_factory=ReviewConfig)

    # Key paths whose values came from secret-looking environment variables.
    _secret_paths: set[str] = PrivateAttr(default_factory=set)
    _source: Path | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _consistent(self) -> EvolveConfig:
        if self.prompt_only and not self.evolve_prompts:
            raise ValueError("prompt_only needs evolve_prompts: true")
        if self.evolver.samples > 1 and self.evolver.mode != "structured":
            raise ValueError("evolver.samples > 1 needs evolver.mode: structured (the other modes ask once)")
        if self.evolver.samples > 1 and self.models.evolver.temperature <= 0:
            raise ValueError("evolver.samples > 1 needs models.evolver.temperature > 0: at temperature 0 every "
                             "sample is the same reply")
        if self.task_proposal.enabled and self.sandbox.kind != "docker":
            raise ValueError("task_proposal.enabled needs sandbox.kind: docker (proposals are written and "
                             "checked in containers)")
        return self

    @property
    def source(self) -> Path | None:
        """The file this config was loaded from, if any."""
        return self._source

    def redacted(self) -> dict[str, Any]:
        """A plain dict safe to print or store: api keys and secret env values replaced."""
        data = self.model_dump(mode="json")
        for path in self._secret_paths:
            _set_path(data, path.split("."), REDACTED)
        for role in data["models"].values():
            if role.get("api_key"):
                role["api_key"] = REDACTED
        return data

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.redacted(), sort_keys=False)


# ----------------------------------------------------------------------------------------------
# Loading


def load_config(path: str | Path | None, overrides: list[str] | tuple[str, ...] = ()) -> EvolveConfig:
    """Load, expand, override and validate. Raises ConfigError with one line per problem."""
    source = Path(path) if path is not None else None
    raw: dict[str, Any] = {}
    lines: dict[str, int] = {}
    if source is not None:
        raw, lines = _read_yaml(source)
    where = str(source) if source else "<defaults>"

    set_paths: dict[str, str] = {}
    for item in overrides:
        key, value = _parse_override(item)
        try:
            _set_path(raw, key.split("."), value, create=True)
        except (TypeError, KeyError):
            raise ConfigError(f"--set {item}: '{key}' does not name a config key") from None
        set_paths[key] = item

    secret_paths: set[str] = set()
    raw = _expand_env(raw, (), where, lines, secret_paths)

    try:
        config = EvolveConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_format_errors(exc, where, lines, set_paths)) from None
    config._secret_paths = secret_paths
    config._source = source
    if source is not None:
        base = source.resolve().parent
        for name in ("workspace", "suite", "runs_dir"):
            value = getattr(config.paths, name)
            if not value.is_absolute():
                setattr(config.paths, name, (base / value).resolve())
    return config


def _read_yaml(source: Path) -> tuple[dict[str, Any], dict[str, int]]:
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{source}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source}: cannot read: {exc}") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise ConfigError(f"{source}{line}: YAML syntax error: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: YAML error: {exc}") from None
    if data is None:
        return {}, {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of keys, not {type(data).__name__}")
    lines: dict[str, int] = {}
    _collect_lines(node, (), lines)
    return data, lines


def _collect_lines(node: yaml.Node | None, prefix: tuple[str, ...], out: dict[str, int]) -> None:
    """Map each key path (dotted) to its 1-based line, so errors can point into the file."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            path = (*prefix, str(key_node.value))
            out[".".join(path)] = key_node.start_mark.line + 1
            _collect_lines(value_node, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = (*prefix, str(index))
            out[".".join(path)] = item.start_mark.line + 1
            _collect_lines(item, path, out)


def _parse_override(item: str) -> tuple[str, Any]:
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise ConfigError(f"--set {item}: expected KEY.SUB=VALUE")
    try:
        parsed = yaml.safe_load(value) if value.strip() else ""
    except yaml.YAMLError:
        parsed = value  # not YAML: take the text as it is
    return key, parsed


def _set_path(data: dict[str, Any], keys: list[str], value: Any, create: bool = False) -> None:
    node = data
    for key in keys[:-1]:
        if key not in node or node[key] is None:
            if not create:
                return
            node[key] = {}
        node = node[key]
        if not isinstance(node, dict):
            raise TypeError(key)
    node[keys[-1]] = value


def _expand_env(value: Any, path: tuple[str, ...], where: str, lines: dict[str, int],
                secret_paths: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _expand_env(v, (*path, str(k)), where, lines, secret_paths) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand_env(v, (*path, str(i)), where, lines, secret_paths) for i, v in enumerate(value)]
    if not isinstance(value, str) or "${" not in value:
        return value

    dotted = ".".join(path)

    def substitute(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if _SECRET_NAME.search(name):
            secret_paths.add(dotted)
        if name in os.environ:
            return os.environ[name]
        if default is not None:
            return default
        raise ConfigError(f"{_locate(where, lines, dotted)}: {dotted}: environment variable {name} is not set")

    return _ENV_PATTERN.sub(substitute, value)


def _locate(where: str, lines: dict[str, int], dotted: str) -> str:
    line = lines.get(dotted)
    return f"{where}:{line}" if line else where


def _format_errors(exc: ValidationError, where: str, lines: dict[str, int], set_paths: dict[str, str]) -> str:
    problems = []
    for error in exc.errors():
        dotted = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            message = "unknown key"
        else:
            message = error["msg"].removeprefix("Value error, ")
            if "input" in error and error["type"] not in ("missing",):
                message += f" (got {error['input']!r})"
        if dotted in set_paths:
            problems.append(f"--set {set_paths[dotted]}: {message}")
        elif dotted:
            problems.append(f"{_locate(where, lines, dotted)}: {dotted}: {message}")
        else:
            problems.append(f"{where}: {message}")
    return "\n".join(problems)
