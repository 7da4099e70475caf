"""The learning curve's statistics: per-workspace holdout pass rates with paired, by-task, seeded
bootstrap intervals, and the share of the headroom (expert - seed) a workspace recovered.

Scores come as {workspace label: {task: [score per repeat (0-1, or None when unscored)]}}. A task's
score is the mean of its scored repeats; the bootstrap resamples tasks (the unit that varies), each
with all its repeats, and uses the same resampled tasks for every workspace, so differences and the
headroom share are paired by task. Percentile intervals, seeded: the same scores give the same
interval. The single-vector bootstrap is the one of novelty.experiments.stats (reused, not copied).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from adaptive_skill.novelty.experiments.stats import LEVEL, RESAMPLES, Interval, bootstrap_mean

__all__ = ["LEVEL", "RESAMPLES", "Interval", "Scores", "bootstrap_mean", "headroom_share", "paired_difference",
           "pass_rate", "task_means"]

Scores = Mapping[str, Sequence[float | None]]  # task -> score per repeat


def task_means(scores: Scores) -> dict[str, float]:
    """task -> mean over its scored repeats; tasks with no scored repeat are left out."""
    out = {}
    for task, values in scores.items():
        present = [float(v) for v in values if v is not None]
        if present:
            out[task] = sum(present) / len(present)
    return out


def pass_rate(scores: Scores, *, seed: int = 0, resamples: int = RESAMPLES, level: float = LEVEL) -> Interval:
    """Mean pass rate over tasks, with a by-task bootstrap interval."""
    means = task_means(scores)
    return bootstrap_mean([means[t] for t in sorted(means)], seed=seed, resamples=resamples, level=level)


def paired_difference(scores: Scores, baseline: Scores, *, seed: int = 0, resamples: int = RESAMPLES,
                      level: float = LEVEL) -> Interval:
    """mean(scores - baseline) over the tasks both scored; tasks resampled together (paired)."""
    a, b = task_means(scores), task_means(baseline)
    common = sorted(set(a) & set(b))
    return bootstrap_mean([a[t] - b[t] for t in common], seed=seed, resamples=resamples, level=level)


def headroom_share(scores: Scores, seed_scores: Scores, expert_scores: Scores, *, seed: int = 0,
                   resamples: int = RESAMPLES, level: float = LEVEL) -> dict:
    """(workspace - seed) / (expert - seed) over the tasks all three scored. The interval resamples
    tasks jointly for the three; resamples whose headroom is 0 or negative (the expert no better than
    the seed: nothing to recover, and a ratio over a negative room reads backwards) have no share and
    are left out (their count is reported). No point estimate when the observed headroom is not positive."""
    w, s, e = task_means(scores), task_means(seed_scores), task_means(expert_scores)
    common = sorted(set(w) & set(s) & set(e))
    out = {"share": None, "low": None, "high": None, "n": len(common), "headroom": None,
           "undefined_resamples": 0, "resamples": resamples}
    if not common:
        return out
    gain = np.array([w[t] - s[t] for t in common])
    room = np.array([e[t] - s[t] for t in common])
    out["headroom"] = round(float(room.mean()), 6)
    if room.mean() > 1e-12:
        out["share"] = round(float(gain.mean() / room.mean()), 6)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(common), size=(resamples, len(common)))
    gains, rooms = gain[idx].mean(axis=1), room[idx].mean(axis=1)
    defined = rooms > 1e-12
    out["undefined_resamples"] = int((~defined).sum())
    if defined.any():
        tail = (1.0 - level) / 2 * 100
        low, high = np.percentile(gains[defined] / rooms[defined], [tail, 100 - tail])
        out["low"], out["high"] = round(float(low), 6), round(float(high), 6)
    return out
