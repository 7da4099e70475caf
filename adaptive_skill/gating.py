"""Holdout gating: the mutated workspace against the accepted one, on the same holdout tasks.

Scores are per task on a 0-10 scale (judge scores as they are, verifier rewards x 10), averaged
over repeats; only tasks scored on both sides count (paired). Accept when the mean improves by at
least `margin` and, if set, the mutated mean reaches `threshold`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from statistics import fmean

from adaptive_skill.config import GatingConfig


@dataclass
class GateDecision:
    accepted: bool
    reason: str
    mutated_mean: float | None = None
    baseline_mean: float | None = None
    delta: float | None = None
    per_task: list[dict] = field(default_factory=list)  # {task, mutated, baseline}
    unscored: list[str] = field(default_factory=list)  # tasks dropped because one side has no score

    def to_dict(self) -> dict:
        return asdict(self)


def decide(mutated: dict[str, list[float]], baseline: dict[str, list[float]], gating: GatingConfig) -> GateDecision:
    """`mutated` / `baseline`: task id -> scores of its repeats (empty when none could be scored)."""
    paired = sorted(t for t in set(mutated) & set(baseline) if mutated[t] and baseline[t])
    unscored = sorted((set(mutated) | set(baseline)) - set(paired))
    if not paired:
        return GateDecision(False, "no holdout task could be scored on both sides", unscored=unscored)
    per_task = [{"task": t, "mutated": round(fmean(mutated[t]), 3), "baseline": round(fmean(baseline[t]), 3)}
                for t in paired]
    mutated_mean = fmean(row["mutated"] for row in per_task)
    baseline_mean = fmean(row["baseline"] for row in per_task)
    delta = mutated_mean - baseline_mean
    decision = GateDecision(False, "", round(mutated_mean, 3), round(baseline_mean, 3), round(delta, 3),
                            per_task, unscored)
    compared = f"holdout mean {mutated_mean:.2f} vs {baseline_mean:.2f}: delta {delta:+.2f}"
    if delta < gating.margin:
        decision.reason = f"{compared} < margin {gating.margin:g}"
    elif gating.threshold is not None and mutated_mean < gating.threshold:
        decision.reason = f"holdout mean {mutated_mean:.2f} below threshold {gating.threshold:g}"
    else:
        decision.accepted = True
        decision.reason = f"{compared} >= margin {gating.margin:g}"
    return decision
