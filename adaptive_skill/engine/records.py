"""The engine's phase results and checkpoint, typed. Each is written as JSON to
runs/<id>/cycles/<n>/<phase>.json (checkpoint.json for the checkpoint) by `to_dict` and read back
by `from_dict` on resume; the on-disk shape is what report/, replay and review read."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Self

from adaptive_skill.evolve.outcome import Changes
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.observe.observations import ObservedItem
from adaptive_skill.proposals.record import ProposalRecord


class _FlatRecord:
    """A record of plain fields (a dataclass), written as they are and read back by name."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass
class SolveResult:
    tasks: list[str]
    results: list[AttemptResult]

    def to_dict(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "results": [r.to_dict() for r in self.results]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SolveResult:
        return cls(tasks=data["tasks"], results=[AttemptResult.from_dict(r) for r in data["results"]])

    def event_summary(self) -> dict[str, Any]:
        return {"tasks": len(self.tasks)}


@dataclass
class ObserveResult:
    items: list[ObservedItem]
    mean_score: float | None
    judge_errors: int
    calibration: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"items": [i.to_dict() for i in self.items], "mean_score": self.mean_score,
                "judge_errors": self.judge_errors, "calibration": self.calibration}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ObserveResult:
        return cls(items=[ObservedItem.from_dict(i) for i in data["items"]], mean_score=data["mean_score"],
                   judge_errors=data["judge_errors"], calibration=data["calibration"])

    def event_summary(self) -> dict[str, Any]:
        return {"mean_score": self.mean_score, "judge_errors": self.judge_errors}


@dataclass
class ExploreAttempt(_FlatRecord):
    """One attempt of the explore phase: a batch task that had not passed, sampled hot."""

    task: str
    attempt: int  # 1..explore.passes
    temperature: float
    score: float | None  # the judge's, 0-10; None when it gave none
    passed: bool  # as the evolver counts a pass (observations.passed)
    commands: list[str]  # its worked commands when it passed (trajectory/worked.py), else []
    trajectory: str | None
    digest: str | None = None  # explore.agree: of the files it left (observe/agreement.py)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExploreAttempt:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass
class ExploreResult:
    tasks: list[str]  # the batch tasks that had not passed (explore.agree: every batch task), in batch order
    attempts: list[ExploreAttempt]
    # explore.agree: per task, the attempt whose pass two attempts' files confirmed (0: the batch's),
    # None where none did; None without explore.agree
    agreed: dict[str, int | None] | None = None

    def found(self) -> list[str]:
        """The tasks that passed: one of whose explore attempts passed, or, with explore.agree, that
        the vote passed (the batch's attempt confirmed included)."""
        if self.agreed is not None:
            return sorted(t for t, a in self.agreed.items() if a is not None)
        return sorted({a.task for a in self.attempts if a.passed})

    def to_dict(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "attempts": [a.to_dict() for a in self.attempts],
                **({"agreed": self.agreed} if self.agreed is not None else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExploreResult:
        return cls(tasks=data["tasks"], attempts=[ExploreAttempt.from_dict(a) for a in data["attempts"]],
                   agreed=data.get("agreed"))

    def event_summary(self) -> dict[str, Any]:
        return {"tasks": len(self.tasks), "attempts": len(self.attempts), "passed": self.found()}


_EVOLVE_FIELDS = ("mutated", "changes", "summary", "reverted", "candidate", "candidate_hash", "skipped")


@dataclass
class EvolveResult:
    """The evolver's outcome (`details`: the rest of EvolveOutcome.to_dict(), e.g. violations, status,
    team) and, when it mutated, the candidate commit and its workspace hash."""

    mutated: bool
    changes: Changes = field(default_factory=Changes)
    summary: str | None = None
    reverted: list[dict[str, Any]] = field(default_factory=list)
    candidate: str | None = None
    candidate_hash: str | None = None
    skipped: str | None = None  # why evolution did not run
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        if self.skipped is not None:
            return {"mutated": self.mutated, "skipped": self.skipped}
        return {**self.details, "changes": self.changes.to_dict(), "summary": self.summary, "reverted": self.reverted,
                "mutated": self.mutated, "candidate": self.candidate, "candidate_hash": self.candidate_hash}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvolveResult:
        if "skipped" in data:
            return cls(mutated=data["mutated"], skipped=data["skipped"])
        return cls(mutated=data["mutated"], changes=Changes(**data["changes"]), summary=data["summary"],
                   reverted=data["reverted"], candidate=data["candidate"], candidate_hash=data["candidate_hash"],
                   details={k: v for k, v in data.items() if k not in _EVOLVE_FIELDS})

    @property
    def created_skills(self) -> list[str]:
        return self.changes.created_skills

    def event_summary(self) -> dict[str, Any]:
        return {"mutated": self.mutated, "reverted": len(self.reverted)}


@dataclass
class GateStatistic(_FlatRecord):
    """sequential.GateStatistic as the gate's record keeps it: rounded, without the per-task means."""

    llr: float
    delta: float | None
    se: float | None
    tasks: int
    pairs: int
    identical: bool


@dataclass
class GateResult:
    """`gated` False: decided without holdout rounds (no mutation, gating off, no holdout); the
    other fields then stay at their defaults and are not written."""

    accepted: bool
    reason: str
    gated: bool
    verdict: str | None = None
    score: str | None = None
    rounds: int = 0
    rollouts: int = 0
    baseline_rounds_reused: int = 0
    statistic: GateStatistic | None = None
    mutated_mean: float | None = None
    baseline_mean: float | None = None
    delta: float | None = None
    per_task: list[dict[str, Any]] = field(default_factory=list)
    unscored: list[str] = field(default_factory=list)
    round_scores: list[dict[str, list[float | None]]] = field(default_factory=list)
    # gating.skill_max_rounds: the skills' own rounds after the whole candidate's (rounds + 1, ...), each
    # on the tasks of the skills then undecided; not part of the whole candidate's statistic
    skill_round_scores: list[dict[str, list[float | None]]] = field(default_factory=list)
    judge_check: dict[str, Any] = field(default_factory=dict)
    temperature: float | None = None
    mutated_commit: str | None = None
    baseline_commit: str | None = None
    # gating.per_skill: each changed skill's decision (sequential.SkillDecision.to_dict) and what it left
    skills: list[dict[str, Any]] = field(default_factory=list)
    kept_skills: list[str] = field(default_factory=list)
    dropped_skills: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if not self.gated:
            return {"accepted": self.accepted, "reason": self.reason, "gated": False}
        data = asdict(self)
        data["statistic"] = self.statistic.to_dict() if self.statistic else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GateResult:
        if not data["gated"]:
            return cls(accepted=data["accepted"], reason=data["reason"], gated=False)
        rest = {k: v for k, v in data.items() if k in cls.__dataclass_fields__ and k != "statistic"}
        statistic = GateStatistic.from_dict(data["statistic"]) if data["statistic"] else None
        return cls(**rest, statistic=statistic)

    def shipped(self, skills: list[str]) -> list[str]:
        """Of `skills` (the candidate's created or modified ones), those the accepted tag holds: all but
        the ones the gate per skill dropped; none when the candidate was rejected."""
        return [s for s in skills if s not in self.dropped_skills] if self.accepted else []

    def moved(self) -> tuple[int, int, int]:
        """Holdout tasks that got better, worse, or stayed the same (mean paired difference); a row
        without a numeric difference (an unscored side) is none of them. The one count of this fact:
        the engine's log, skills log and the evolver's history all read it here."""
        diffs = [d for _, d in self.differences()]
        return sum(d > 0 for d in diffs), sum(d < 0 for d in diffs), sum(d == 0 for d in diffs)

    def differences(self) -> list[tuple[str, float]]:
        """(task, difference) of each per-task row with a numeric difference. gate.json is read back
        from disk, so a row that is not an object, or lacks its task, is skipped or named "?"."""
        rows = self.per_task if isinstance(self.per_task, list) else []
        return [(str(row.get("task", "?")), float(row["difference"])) for row in rows
                if isinstance(row, dict) and isinstance(row.get("difference"), int | float)
                and not isinstance(row["difference"], bool) and math.isfinite(row["difference"])]

    def evidence(self) -> list[str]:
        """The decision and what it rests on, in lines a person reads (the engine's log, skills log,
        the report): rounds and attempts, the holdout means, each task's difference, the decision."""
        if not self.gated:
            return [f"not gated: {self.reason}"]
        better, worse, same = self.moved()
        own = (f" ({len(self.skill_round_scores)} more round(s) on the undecided skills' tasks)"
               if self.skill_round_scores else "")
        lines = [f"{self.rounds} round(s){own}, {self.rollouts} attempts; holdout pass rate mutated "
                 f"{_percent(self.mutated_mean)} vs baseline {_percent(self.baseline_mean)}; "
                 f"{better} task(s) better, {worse} worse, {same} unchanged"]
        moved = sorted(self.differences(), key=lambda pair: -abs(pair[1]))
        if moved:
            lines.append("per task (mutated - baseline): " + ", ".join(f"{task} {d:+.2f}" for task, d in moved))
        for row in self.skills if isinstance(self.skills, list) else []:
            if isinstance(row, dict):
                lines.append(f"skill {row.get('skill')}: {row.get('verdict')} on {len(row.get('tasks') or [])} "
                             f"task(s): {row.get('reason')}")
        lines.append(f"{'accepted' if self.accepted else 'rejected'}: {self.reason}")
        return lines

    def event_summary(self) -> dict[str, Any]:
        """For the phase_end event: the holdout means on the 0-10 scale events.md promises."""
        return {"accepted": self.accepted, "reason": self.reason, "rounds": self.rounds if self.gated else None,
                "delta": self.delta, "mutated_mean": _tenfold(self.mutated_mean),
                "baseline_mean": _tenfold(self.baseline_mean)}


@dataclass
class CommitResult:
    tag: str | None
    commit: str
    rolled_back: bool
    rejected_commit: str | None = None
    # gating.per_skill: holdout task -> the skill the pruned library places there that no gate round ran
    # (engine/placements.py); only when skills were dropped
    untried_placements: dict[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {"tag": self.tag, "commit": self.commit, "rolled_back": self.rolled_back}
        if self.rejected_commit is not None:
            data["rejected_commit"] = self.rejected_commit
        if self.untried_placements is not None:
            data["untried_placements"] = self.untried_placements
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CommitResult:
        return cls(tag=data["tag"], commit=data["commit"], rolled_back=data["rolled_back"],
                   rejected_commit=data["rejected_commit"] if "rejected_commit" in data else None,
                   untried_placements=data.get("untried_placements"))

    def event_summary(self) -> dict[str, Any]:
        return {"tag": self.tag, "rolled_back": self.rolled_back}


@dataclass
class ConvergeResult(_FlatRecord):
    egl: float
    new_skills: int
    tasks: int
    solved: int
    converged: bool

    def event_summary(self) -> dict[str, Any]:
        return self.to_dict()


@dataclass
class ProposeResult:
    """The cycle's proposals, admitted and rejected (each also in runs/<id>/proposals/<task-id>/);
    `reason`: why nothing was proposed; `ideas_stop`: how the novelty loop ended."""

    seed: str | None
    proposed: list[ProposalRecord]
    reason: str | None = None
    ideas_stop: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seed": self.seed, "proposed": [r.to_dict() for r in self.proposed],
                                "counts": self.counts(), "ideas_stop": self.ideas_stop}
        if self.reason is not None:
            data["reason"] = self.reason
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProposeResult:
        # entries without a status are proposals of the older kind (instruction only): not records
        return cls(seed=data["seed"], proposed=[ProposalRecord.from_dict(r) for r in data["proposed"] if "status" in r],
                   reason=data["reason"] if "reason" in data else None, ideas_stop=data.get("ideas_stop"))

    def counts(self) -> dict[str, int]:
        """How many were proposed, built, sound (passed every check) and admitted."""
        return {"proposed": len(self.proposed), "built": sum(bool(r.checks.build.ok) for r in self.proposed),
                "sound": sum(r.sound for r in self.proposed),
                "admitted": sum(r.status == "admitted" for r in self.proposed)}

    def event_summary(self) -> dict[str, Any]:
        cost = {"usd": round(sum(r.cost.usd for r in self.proposed), 6),
                "tokens": sum(r.cost.tokens for r in self.proposed),
                "seconds": round(sum(r.cost.seconds for r in self.proposed), 3)}
        return {**self.counts(), "cost": cost, "reason": self.reason}


@dataclass
class CycleRecord(_FlatRecord):
    """One finished cycle, as the checkpoint keeps it (the evolver's history is built from these)."""

    cycle: int
    tag: str | None
    accepted: bool
    mutated: bool
    created: list[str]
    summary: str | None


@dataclass
class Checkpoint:
    """Where a run stands: the next cycle, the phases of it already done, the accepted workspace."""

    cycle: int
    done: list[str]
    status: str
    accepted_commit: str
    accepted_hash: str
    cycles: list[CycleRecord] = field(default_factory=list)
    egl: list[float] = field(default_factory=list)
    elapsed_sec: float = 0.0
    converged: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "cycles": [c.to_dict() for c in self.cycles]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Checkpoint:
        """Reads what RunDir.load_checkpoint returns (its version and saved_at, and the `accounting`
        copy runs before the cost journal kept, are left out)."""
        return cls(cycle=data["cycle"], done=list(data["done"]), status=data["status"],
                   accepted_commit=data["accepted_commit"], accepted_hash=data["accepted_hash"],
                   cycles=[CycleRecord.from_dict(c) for c in data["cycles"]], egl=list(data["egl"]),
                   elapsed_sec=float(data["elapsed_sec"]), converged=bool(data["converged"]) if "converged" in data
                   else False)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _tenfold(value: float | None) -> float | None:
    return None if value is None else round(value * 10, 4)
