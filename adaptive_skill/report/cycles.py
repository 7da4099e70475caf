"""One row per cycle: what was solved and judged, what the evolver changed (with its skill diff),
how the gate decided, what it cost. The learning curves are columns of these rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adaptive_skill.report.load import PHASES, Run
from adaptive_skill.report.repo import RunRepo


@dataclass
class CycleRow:
    n: int
    done: list[str]  # finished phases: all six for a complete cycle
    tasks: int | None = None
    batch_score: float | None = None  # the judge's mean score on the batch
    judge_errors: int | None = None
    mutated: bool | None = None
    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    reverted: int = 0
    gated: bool | None = None
    accepted: bool | None = None
    reason: str = ""
    mutated_mean: float | None = None
    baseline_mean: float | None = None
    delta: float | None = None  # the gate's mean paired difference over tasks (0-1 scores)
    rounds: int | None = None  # gate rounds used
    llr: float | None = None  # the gate's statistic when it decided
    verdict: str | None = None  # accept | reject (the gate's own word)
    judge_check: dict[str, Any] | None = None  # the judge against the verifier on this cycle's holdout attempts
    holdout: float | None = None  # holdout score of the accepted workspace after this cycle (0-10)
    tag: str | None = None
    skills: int | None = None  # skills in the accepted workspace after this cycle
    egl: float | None = None
    costs: dict[str, dict[str, float]] = field(default_factory=dict)
    calibration: dict[str, Any] | None = None
    diff: str = ""
    diff_between: tuple[str, str] | None = None  # labels of the two compared commits
    explored: str = ""  # the explore phase, when it ran: "2 of 21 passed hot (1.0)"

    @property
    def complete(self) -> bool:
        return all(phase in self.done for phase in PHASES)

    @property
    def judge_agreement(self) -> str:
        """"agreement 83% · AUROC 0.91 (n=24)", with a warning mark when the run warned."""
        check = self.judge_check
        if not check or not check.get("n"):
            return ""
        auroc = check.get("auroc")
        text = (f"agreement {check['agreement']:.0%} · AUROC {'n/a' if auroc is None else f'{auroc:.2f}'} "
                f"(n={check['n']})")
        return ("WARNING: " + text) if check.get("warning") else text

    @property
    def gate_summary(self) -> str:
        """"2 rounds, LLR +40.0"."""
        if not self.rounds:
            return ""
        return f"{self.rounds} round{'s' if self.rounds != 1 else ''}, LLR {self.llr:+.1f}" if self.llr is not None \
            else f"{self.rounds} rounds"

    @property
    def decision(self) -> str:
        if self.accepted:
            return f"accepted as {self.tag}" if self.tag else "accepted"
        if self.mutated and self.gated:
            return "rejected"
        if self.mutated is False:
            return "no mutation"
        return "in progress" if not self.complete else "not gated"


def rows(run: Run, repo: RunRepo, costs: dict[int, dict[str, dict[str, float]]]) -> list[CycleRow]:
    found = []
    holdout = None
    accepted_commit = repo.seed_commit()
    for cycle in run.cycles:
        solve, observe, evolve = cycle.get("solve"), cycle.get("observe"), cycle.get("evolve")
        gate, commit, converge = cycle.get("gate"), cycle.get("commit"), cycle.get("converge")
        changes = evolve.get("changes") or {}
        row = CycleRow(n=cycle.n, done=[p for p in PHASES if p in cycle.phases],
                       tasks=len(solve["tasks"]) if "tasks" in solve else None,
                       batch_score=observe.get("mean_score"), judge_errors=observe.get("judge_errors"),
                       mutated=evolve.get("mutated"), created=changes.get("created_skills", []),
                       modified=changes.get("modified_skills", []), deleted=changes.get("deleted_skills", []),
                       reverted=len(evolve.get("reverted") or []), gated=gate.get("gated"),
                       accepted=gate.get("accepted") if gate else None, reason=gate.get("reason", ""),
                       mutated_mean=gate.get("mutated_mean"), baseline_mean=gate.get("baseline_mean"),
                       delta=gate.get("delta"), rounds=gate.get("rounds"),
                       llr=(gate.get("statistic") or {}).get("llr"), verdict=gate.get("verdict"),
                       judge_check=gate.get("judge_check"), tag=commit.get("tag"), egl=converge.get("egl"),
                       costs=costs.get(cycle.n, {}), calibration=observe.get("calibration"))
        row.explored = explored(cycle.get("explore"))
        if gate.get("gated"):
            holdout = gate.get("mutated_mean") if gate.get("accepted") else gate.get("baseline_mean")
            holdout = to_ten(gate, holdout)
        row.holdout = holdout
        candidate = evolve.get("candidate")
        if candidate:
            before = gate.get("baseline_commit") or repo.parent(candidate)
            row.diff = repo.diff(before, candidate)
            row.diff_between = (repo.label(before), repo.label(candidate))
        if commit:
            accepted_commit = commit.get("commit") or accepted_commit
            row.skills = repo.skill_count(accepted_commit)
        found.append(row)
    return found


def explored(explore: dict) -> str:
    """The explore phase of a cycle in words: how many of the tasks it re-attempted one of its
    attempts passed, at which temperature, in how many attempts; "" when it did not run."""
    attempts = explore.get("attempts") if isinstance(explore, dict) else None
    if not isinstance(attempts, list) or not isinstance(explore.get("tasks"), list):
        return ""
    attempts = [a for a in attempts if isinstance(a, dict)]
    found = sorted({str(a.get("task")) for a in attempts if a.get("passed") is True})
    temperatures = sorted({a.get("temperature") for a in attempts if isinstance(a.get("temperature"), int | float)})
    hot = f" at temperature {', '.join(f'{t:g}' for t in temperatures)}" if temperatures else ""
    return (f"explore: {len(found)} of {len(explore['tasks'])} unpassed task(s) passed{hot} "
            f"({len(attempts)} attempt(s))" + (f": {', '.join(found)}" if found else ""))


def to_ten(gate: dict, score: float | None) -> float | None:
    """A gate score on the 0-10 scale of the judge: the sequential gate (it records `rounds`) scores
    0-1, the gate before it scored 0-10."""
    if score is None or not gate.get("rounds"):
        return score
    return round(score * 10, 4)
