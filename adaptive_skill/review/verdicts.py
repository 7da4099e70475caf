"""People's verdicts on escalated trajectories, for the engine's observe phase when
`review.human_verdicts` is on: a batch trajectory the spiral monitor escalated (`needs_review`) and
that people rated gets a verdict made from their ratings in place of the judge's, which is kept
beside it as `judge_verdict` (the report compares the two)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

from adaptive_skill.files import read_json
from adaptive_skill.review.items import solve_key
from adaptive_skill.review.store import Rating, by_item, read_ratings


@dataclass
class HumanVerdicts:
    verdicts: dict[str, dict[str, Any]] = field(default_factory=dict)  # task -> verdict
    unrated: list[str] = field(default_factory=list)  # escalated tasks nobody rated yet

    @classmethod
    def load(cls, run_root: Path, cycle: int, results: list, pass_threshold: float) -> HumanVerdicts:
        """For one cycle's batch: results are its AttemptResults."""
        rated = by_item(read_ratings(run_root))
        found = cls()
        for result in results:
            data = read_json(Path(result.trajectory_path), None) if result.trajectory_path else None
            metadata = data.get("metadata") if isinstance(data, dict) else None
            if not isinstance(metadata, dict) or not metadata.get("needs_review"):
                continue
            given = [r for r in rated.get(solve_key(cycle, result.task_id), []) if r.kind == "trajectory"]
            if given:
                found.verdicts[result.task_id] = verdict(given, pass_threshold)
            else:
                found.unrated.append(result.task_id)
        return found

    def replace(self, item: dict[str, Any]) -> dict[str, Any] | None:
        """Put people's verdict into an observe item (keeping the judge's); the verdict, or None."""
        human = self.verdicts.get(item["task"])
        if human is None:
            return None
        judge = item.get("verdict")
        item["judge_verdict"] = judge
        item["verdict"] = {"category": (judge or {}).get("category", "other"), "task_id": item["task"], **human}
        item["judge_error"] = None
        return item["verdict"]


def verdict(ratings: list[Rating], pass_threshold: float) -> dict[str, Any]:
    """One verdict from each rater's latest rating: the mean score; the reasons they gave."""
    score = round(mean(float(r.answers["score"]) for r in ratings), 2)
    solved = [r.answers.get("solved") for r in ratings]
    raters = sorted(r.rater for r in ratings)
    reasons = [f"{r.rater}: {r.answers['what_went_wrong']}" for r in ratings if r.answers.get("what_went_wrong")]
    said = "solved" if solved.count(True) > solved.count(False) else \
        "not solved" if solved.count(False) > solved.count(True) else "split on whether it was solved"
    return {"score": score, "outcome": f"Reviewed by {', '.join(raters)}: {said}.",
            "failure_reason": None if score >= pass_threshold else "; ".join(reasons) or "(no reason given)",
            "key": "", "cached": False, "status": "ok", "source": "human", "raters": raters}
