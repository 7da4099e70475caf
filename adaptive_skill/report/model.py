"""Everything a report shows, computed once from the run directory; the HTML and Markdown
renderers only lay it out."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from adaptive_skill.report import attempts as attempts_mod
from adaptive_skill.report import costs, cycles, matrix, review, spiral
from adaptive_skill.report import proposals as proposals_mod
from adaptive_skill.report.load import Run, load_run
from adaptive_skill.report.repo import RunRepo


@dataclass
class Report:
    run: Run
    status: str  # the run_end status, or "running or crashed" without one
    tags: list[str]
    rows: list[cycles.CycleRow]
    attempts: list[attempts_mod.Attempt]
    matrix: matrix.Matrix
    interventions: list[spiral.SpiralEvent]
    detections: int
    calibration: dict[str, Any] | None  # pooled over every cycle's batch
    holdout_calibration: dict[str, Any] | None  # the gate's judge checks, pooled over the run's holdout attempts
    skill_use: list[SkillUse]  # per skill, version and side: reads and outcomes (observe/attribution.py)
    judge_points: list[tuple[float, bool, str]]  # (score, passed, "task (cycle n)")
    role_totals: dict[str, dict[str, Any]]
    run_totals: dict[str, Any]
    unfinished: costs.Unfinished  # paid for attempts that did not finish (cut by a kill, or in flight)
    max_skills: int | None
    egl_threshold: float | None
    pass_threshold: float
    proposals: list[proposals_mod.Proposal] = field(default_factory=list)  # the engine's, admitted or not
    proposal_cycles: list[proposals_mod.CycleProposals] = field(default_factory=list)
    human: review.HumanReview | None = None  # people's ratings against the machine (adaptive-skill review)

    @property
    def name(self) -> str:
        return self.run.root.name

    @property
    def proposing(self) -> bool:
        """Whether the report has a section on proposed tasks: the run proposes, or did."""
        return bool(self.proposals or self.proposal_cycles or self.run.setting("task_proposal", "enabled"))

    def origin(self, task: str) -> str | None:
        """'proposed, cycle 1' beside every task the engine proposed and trained on; None for a suite task."""
        found = self._pool.get(task)
        return found.origin if found else None

    @cached_property
    def _pool(self) -> dict[str, proposals_mod.Proposal]:
        return proposals_mod.in_pool(self.proposals)


HumanReviewSource = Callable[[Run, RunRepo, list[attempts_mod.Attempt], float], "review.HumanReview | None"]


def build(path: Path, human_review: HumanReviewSource | None = None) -> Report:
    """`human_review` (review.human.human_review, passed by the report command) adds people's
    ratings against the machine; the review app sits above the report, so it is handed in."""
    run = load_run(path)
    repo = RunRepo(run.workspace)
    found = attempts_mod.collect(run, repo)
    rows = cycles.rows(run, repo, costs.per_cycle(run))
    proposed = proposals_mod.read_proposals(run.root)
    points = _judge_points(run)
    threshold = float(run.setting("judge", "pass_threshold", default=7.0))
    return Report(run=run, status=_status(run), tags=list(repo.tags), rows=rows, attempts=found,
                  matrix=matrix.build(found, rows, repo.label(repo.seed_commit())),
                  interventions=spiral.interventions(found), detections=spiral.detections(found),
                  calibration=_pooled(points, threshold), holdout_calibration=_pooled(_holdout_points(run), threshold),
                  skill_use=skill_use(found), judge_points=points, role_totals=costs.run_roles(run),
                  run_totals=costs.run_totals(run), unfinished=costs.unfinished(run),
                  max_skills=run.setting("max_skills"), egl_threshold=run.setting("egl_threshold"),
                  pass_threshold=threshold, proposals=proposed, proposal_cycles=proposals_mod.per_cycle(run, proposed),
                  human=human_review(run, repo, found, threshold) if human_review else None)


def _status(run: Run) -> str:
    ends = [e for e in run.events if e.get("event") == "run_end"]
    last = run.events[-1] if run.events else None
    if ends and last is ends[-1]:
        return str(ends[-1].get("status"))
    return "running, or stopped without a word (crash or kill)"


def _judge_points(run: Run) -> list[tuple[float, bool, str]]:
    """The judge's score and the verifier's label of every judged batch attempt."""
    points = []
    for cycle in run.cycles:
        labels = {r.get("task_id"): bool(r.get("passed")) for r in cycle.get("solve").get("results", [])}
        for item in cycle.get("observe").get("items", []):
            verdict = item.get("verdict") or {}
            if isinstance(verdict.get("score"), int | float) and item.get("task") in labels:
                points.append((float(verdict["score"]), labels[item["task"]], f"{item['task']} (cycle {cycle.n})"))
    return points


def _holdout_points(run: Run) -> list[tuple[float, bool, str]]:
    """The judge's score and the verifier's label of every judged holdout attempt (the gate's checks)."""
    points = []
    for cycle in run.cycles:
        check = cycle.get("gate").get("judge_check")
        pairs = check.get("pairs") if isinstance(check, dict) else None  # older runs: no pairs
        for pair in pairs if isinstance(pairs, list) else []:
            if (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int | float)
                    and not isinstance(pair[0], bool) and math.isfinite(pair[0]) and isinstance(pair[1], bool)):
                points.append((float(pair[0]), pair[1], f"holdout (cycle {cycle.n})"))
    return points


@dataclass(frozen=True)
class SkillUse:
    side: str  # train (outcome: the judge's score / 10) or holdout (the verifier's pass)
    row: Any  # observe.attribution.SkillRow


def skill_use(found: list[attempts_mod.Attempt]) -> list[SkillUse]:
    """Per skill and workspace version, on each side: attempts offered it, that read it, and their
    outcome against attempts of the same tasks that did not read it."""
    from adaptive_skill.observe.attribution import Use, attribute, skills_of

    sides: dict[str, list[Use]] = {"train": [], "holdout": []}
    for attempt in found:
        if attempt.phase == "evolve" or attempt.trajectory is None:
            continue
        offered, read = skills_of(attempt.load())
        if attempt.phase == "solve":
            side, outcome = "train", None if attempt.score is None else attempt.score / 10
        elif attempt.failure_mode == "unverified":  # no tests: the verifier says nothing (the gate used the judge)
            side, outcome = "holdout", None
        else:
            side, outcome = "holdout", None if attempt.passed is None else float(attempt.passed)
        sides[side].append(Use(attempt.task, attempt.workspace, offered, read, outcome))
    return [SkillUse(side, row) for side, uses in sides.items() for row in attribute(uses)]


def _pooled(points: list[tuple[float, bool, str]], threshold: float) -> dict[str, Any] | None:
    if not points:
        return None
    from adaptive_skill.observe.calibration import metrics

    return {"threshold": threshold, **metrics([p[0] for p in points], [p[1] for p in points], threshold)}
