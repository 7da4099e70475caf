"""Holdout evaluation: a workspace's attempts on the holdout tasks in one gate round (the agent at
gating.temperature with the round's seed, the same on both sides and in replay) and their 0-1 scores.
The gate, replay and benchmarks/evolution evaluate workspaces through it; each workspace's rounds are
kept by its hash and the sampling settings, so an accepted workspace's rounds are run once."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from adaptive_skill.config import EvolveConfig
from adaptive_skill.engine.phase_solve import find_task, run_attempts
from adaptive_skill.evolve.rules import workspace_hash
from adaptive_skill.files import building_dir, read_json
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.tasks import Task
from adaptive_skill.versioning import WorkspaceRepo


@dataclass
class HoldoutRound:
    scores: dict[str, float | None]  # task -> 0-1
    judged: list[tuple[float, bool]]  # (judge score 0-10, verifier passed) per labelled attempt
    placed: dict[str, str | None] = field(default_factory=dict)  # task -> the skill placed in its prompt


def evaluate_holdout(engine, workspace_dir: Path, out: Path, title: str, round_index: int) -> HoldoutRound:
    """One gate round: every holdout task once with the workspace in `workspace_dir`, the agent
    sampling at gating.temperature with this round's seed. Scores 0-1 per task (None when
    neither the verifier nor the judge could score it); finished attempts under `out` are reused."""
    return score_round(engine, attempt_tasks(engine, engine.holdout, workspace_dir, out, title, round_index))


def attempt_tasks(engine, tasks: list[Task], workspace_dir: Path, out: Path, title: str,
                  round_index: int, temperature: float | None = None) -> list[AttemptResult]:
    """Each task once with the workspace in `workspace_dir`, sampled as gate round `round_index`
    (the holdout's rounds, and a benchmark's runs over other tasks) at gating.temperature, or at
    `temperature` (a benchmark exploring; its attempts are kept apart, under `out`/t<T>);
    finished attempts are reused."""
    config = gate_config(engine, round_index)
    folder = out / f"r{round_index}"
    if temperature is not None and temperature != config.models.agent.temperature:
        config.models.agent.temperature = temperature
        folder = out / f"t{temperature:g}" / f"r{round_index}"
    return run_attempts(engine, tasks, workspace_dir, folder, title, config=config)


def holdout_rounds_dir(engine, workspace_hash: str) -> Path:
    """Where the holdout rounds of the workspace with this hash are kept, by the sampling settings:
    the gate's baseline side, and anything else that evaluates a workspace (benchmarks/evolution)."""
    return engine.run_dir.baseline_dir(workspace_hash) / _sampling_key(engine.config)


def gate_config(engine, round_index: int) -> EvolveConfig:
    """The run's config with the agent sampling at the gate temperature and this round's seed,
    the same on both sides: runs vary between rounds and replay exactly."""
    config = engine.config.model_copy(deep=True)
    config.models.agent.temperature = engine.config.gating.temperature
    config.models.agent.seed = gate_seed(engine.config.seed, round_index)
    return config


def score_round(engine, results: list[AttemptResult]) -> HoldoutRound:
    """Every attempt is judged (cached) for the judge check, unless gating.judge_check is false; the
    gate's score is the verifier's reward with gating.score verifier, the judge's where there is no
    verifier or it gave none."""
    from adaptive_skill.observe.attribution import placed_skill
    from adaptive_skill.observe.judge import JudgeItem

    items, judgeable = [], []
    placed: dict[str, str | None] = {}
    for result in results:
        if engine.config.gating.per_skill:
            placed[result.task_id] = placed_skill(read_json(Path(result.trajectory_path), None)
                                                  if result.trajectory_path else None)
        if not engine.config.gating.judge_check and verifier_score(result, engine.config.gating.score) is not None:
            continue  # scored by its tests, and no judge check asked for
        trajectory = read_json(Path(result.trajectory_path), None) if result.trajectory_path else None
        if trajectory is not None:
            task = find_task(engine, result.task_id)
            items.append(JudgeItem(task.instruction, trajectory, task.id))
            judgeable.append(result)
    verdicts = engine.roles.judge().judge_many(items, workers=engine.config.workers) if items else []
    judge_scores = {r.task_id: float(v.score) for r, v in zip(judgeable, verdicts, strict=True)
                    if v.status == "ok"}
    scores: dict[str, float | None] = {}
    judged: list[tuple[float, bool]] = []
    for result in results:
        judge = judge_scores.get(result.task_id)
        labelled = result.failure_mode != "unverified" and isinstance(result.reward, int | float)
        if labelled and judge is not None:
            judged.append((judge, bool(result.passed)))
        scores[result.task_id] = attempt_score(engine, result, judge)
    return HoldoutRound(scores, judged, placed)


def attempt_score(engine, result: AttemptResult, judge_score: float | None) -> float | None:
    """0-1: the verifier's reward (gating.score verifier, where the task has tests and they gave
    one), else the judge's score / 10."""
    verified = verifier_score(result, engine.config.gating.score)
    if verified is not None:
        return verified
    return None if judge_score is None else judge_score / 10.0


def export_baseline(repo: WorkspaceRepo, commit: str, dest: Path, expected_hash: str) -> None:
    """The accepted workspace for the gate's baseline side, unless already there with the expected
    content. Exported under a temporary name and renamed when whole, so a kill mid-export leaves
    nothing a later cycle trusts; a folder whose content is not the accepted one is exported again."""
    if dest.is_dir() and workspace_hash(dest) == expected_hash:
        return
    with building_dir(dest) as tmp:
        repo.export(commit, tmp)


def keep_rounds(gate_mutated: Path, rounds_dir: Path) -> None:
    """The accepted candidate's gate rounds become the round cache of the new accepted workspace
    (same workspace, same round seeds): the next gate's baseline and any evaluation of its tag reuse
    them instead of running them again. Rounds already there are left; each copy lands whole (a
    temporary name, then a rename), so a crash and resume copy again. Only real directories and
    files are copied: a link (the host writes none there) is neither followed nor copied."""
    for round_dir in sorted(gate_mutated.glob("r*")):
        dest = rounds_dir / round_dir.name
        results = round_dir / "results"
        if dest.exists() or round_dir.is_symlink() or results.is_symlink() or not results.is_dir():
            continue
        rounds_dir.mkdir(parents=True, exist_ok=True)
        partial = rounds_dir / f".{round_dir.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(round_dir, partial, symlinks=True, ignore=_links)
        partial.rename(dest)


def _links(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if os.path.islink(os.path.join(directory, name))]


def verifier_score(result: AttemptResult, score: str) -> float | None:
    """The verifier's reward clipped to 0-1 when gating.score is verifier and the tests gave one."""
    reward = result.reward
    if (score == "verifier" and result.failure_mode != "unverified"
            and isinstance(reward, int | float) and math.isfinite(reward)):  # test.sh may write "nan"
        return max(0.0, min(1.0, float(reward)))
    return None


# The skills' own rounds (gating.skill_max_rounds: round r of a skill, r >= max_rounds) sample as gate
# round SKILL_ROUNDS + r, kept under r<SKILL_ROUNDS + r>: a seed stream apart from the whole candidate's
# rounds and from a curve's fresh ones (curve.first_round), so no attempt a skill was decided on is
# reused to measure the tag that keeps it.
SKILL_ROUNDS = 1000


def gate_seed(run_seed: int, round_index: int) -> int:
    """The agent's sampling seed in gate round `round_index`: the same on both sides and in replay."""
    digest = hashlib.sha256(f"gate-{run_seed}-{round_index}".encode()).hexdigest()
    return int(digest[:8], 16)


def _sampling_key(config: EvolveConfig) -> str:
    """Names the baseline rounds by what decides an attempt besides the workspace: the agent model
    and its gate sampling; a changed setting runs fresh rounds instead of pairing stale ones."""
    agent = config.models.agent.model_dump(exclude={"api_key", "temperature", "seed"})
    for option in ("check_before_submit", "show_before_submit"):
        if not agent[option]:
            del agent[option]  # off, the key is the one runs kept before the option existed
    settings = {"agent": agent, "temperature": config.gating.temperature, "seed": config.seed,
                "max_steps": config.limits.max_steps}
    return "gate-" + hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[:12]
