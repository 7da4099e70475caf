"""People's ratings of the run (RUN/reviews.sqlite, from `adaptive-skill review`) against the
machine's view of the same items, like the judge's calibration against the labels: the judge's
pass verdict (and the verifier) on escalated trajectories, the gate's decision on skill mutations,
embedding novelty on proposed tasks; and how far the raters agree with each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adaptive_skill.errors import UserError
from adaptive_skill.report.attempts import Attempt
from adaptive_skill.report.load import Run
from adaptive_skill.report.repo import RunRepo


@dataclass
class HumanReview:
    ratings: int
    raters: list[str]
    comparisons: list[Any]  # review.agreement.Comparison, one per (kind, machine side)
    items: list[Any]  # review.agreement.ItemComparison, one per rated item
    between: list[Any]  # review.agreement.RaterAgreement, one per question


def human_review(run: Run, repo: RunRepo, attempts: list[Attempt], pass_threshold: float) -> HumanReview | None:
    """None when nobody rated this run (or its ratings cannot be read: the rest of the report still can)."""
    from adaptive_skill.review.store import read_ratings

    try:
        ratings = read_ratings(run.root)
    except UserError:
        return None
    if not ratings:
        return None
    from adaptive_skill.review import agreement
    from adaptive_skill.review.items import collect_from

    items = collect_from(run, repo, attempts)
    comparisons, rows = agreement.machine_vs_people(items, ratings, pass_threshold)
    return HumanReview(len(ratings), sorted({r.rater for r in ratings}), comparisons, rows,
                       [row for row in agreement.between_raters(items, ratings) if row.items])
