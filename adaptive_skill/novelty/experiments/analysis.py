"""From stored records to the experiment's numbers: one row of metrics per run, then per
condition a bootstrap interval of each metric's mean and its difference from `direct`.

Flexibility needs categories that mean the same across runs, so the clusters behind it are
formed over all proposals of a problem (every condition and repeat, in a fixed order) rather than
per run; `label_flexibility` uses the category the model itself gave each task instead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adaptive_skill.novelty.experiments import metrics
from adaptive_skill.novelty.experiments.conditions import BASELINE
from adaptive_skill.novelty.experiments.stats import LEVEL, RESAMPLES, bootstrap_difference, bootstrap_mean

# metric -> what it means, in the order of the tables
METRICS = {
    "mean_novelty": "mean centroid distance of the run's tasks",
    "max_novelty": "highest centroid distance in the run",
    "diversity": "mean pairwise cosine distance between the run's tasks",
    "clusters": "clusters the run's tasks formed (one-pass clustering)",
    "flexibility": "category switches along the run (categories: clusters over the problem)",
    "label_flexibility": "category switches along the run (categories: the model's own labels)",
    "jump_ratio": "share of steps farther than the jump threshold from the task before",
    "breakthrough": "share of runs with a task at or above the breakthrough threshold",
    "iterations_to_breakthrough": "iteration of the first breakthrough (runs with one)",
}


@dataclass
class Analysis:
    conditions: list[str]
    rows: list[dict[str, Any]]  # one per run
    summary: dict[str, dict[str, Any]]
    comparisons: dict[str, dict[str, Any]]
    # problem -> (PCA of its tasks, the condition of each row)
    projections: dict[str, tuple[np.ndarray, list[str]]] = field(default_factory=dict)
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"conditions": self.conditions, "baseline": BASELINE, "metrics": METRICS,
                "bootstrap": {"resamples": RESAMPLES, "level": LEVEL, "seed": self.seed},
                "summary": self.summary, "comparisons": self.comparisons, "runs": self.rows}


def analyse(records: list[dict[str, Any]], conditions: list[str], *, jump_threshold: float,
            cluster_similarity: float, seed: int = 0) -> Analysis:
    labels = _problem_clusters(records, conditions, cluster_similarity)
    rows = [_row(record, labels[id(record)], jump_threshold) for record in records]
    summary = {c: _summarise([r for r in rows if r["condition"] == c], seed) for c in conditions}
    comparisons = {condition: _compare(rows, condition, seed) for condition in conditions
                   if condition != BASELINE and BASELINE in conditions}
    return Analysis(conditions, rows, summary, comparisons, _projections(records), seed)


def _row(record: dict[str, Any], clusters: list[int], jump_threshold: float) -> dict[str, Any]:
    run = record["run"]
    done = [it for it in run["iterations"] if it["task"] is not None]
    scores = [it["novelty"]["score"] for it in done]
    steps = [it["novelty"]["step_distance"] for it in done]
    jumps = metrics.jumps(steps, jump_threshold)
    vectors = np.asarray(record["vectors"], dtype=np.float64)
    breakthrough = run["breakthrough"]
    return {"problem": record["problem"], "condition": record["condition"], "repeat": record["repeat"],
            "seed": record["seed"], "proposals": len(done), "failures": len(run["iterations"]) - len(done),
            "mean_novelty": float(np.mean(scores)) if scores else None,
            "max_novelty": max(scores) if scores else None,
            "diversity": metrics.mean_pairwise_distance(vectors) if len(vectors) else None,
            "clusters": run["clusters"]["count"], "flexibility": metrics.flexibility(clusters),
            "label_flexibility": metrics.flexibility([it["task"]["category"] for it in done]),
            "jump_ratio": jumps.ratio, "jump_positions": jumps.positions,
            "breakthrough": 1.0 if breakthrough is not None else 0.0, "iterations_to_breakthrough": breakthrough,
            "iterations": [it["index"] for it in done], "scores": scores, "cost_usd": record["cost"]["usd"]}


def _problem_clusters(records: list[dict[str, Any]], conditions: list[str], similarity: float) -> dict[int, list[int]]:
    """Cluster labels of each record's tasks, clustered per problem in a fixed order."""
    order = {condition: i for i, condition in enumerate(conditions)}
    labels: dict[int, list[int]] = {}
    for problem in sorted({r["problem"] for r in records}):
        group = sorted((r for r in records if r["problem"] == problem),
                       key=lambda r: (order.get(r["condition"], len(order)), r["repeat"]))
        vectors = [v for r in group for v in r["vectors"]]
        flat = metrics.cluster_labels(np.asarray(vectors), similarity) if vectors else []
        start = 0
        for record in group:
            labels[id(record)] = flat[start:start + len(record["vectors"])]
            start += len(record["vectors"])
    return labels


def _values(rows: list[dict[str, Any]], metric: str) -> list[float]:
    return [float(r[metric]) for r in rows if r[metric] is not None]


def _summarise(rows: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    scores = [s for r in rows for s in r["scores"]]
    quantiles = np.percentile(scores, [0, 25, 50, 75, 100]).tolist() if scores else [None] * 5
    positions = Counter(p for r in rows for p in r["jump_positions"])
    return {"runs": len(rows), "cost_usd": round(sum(r["cost_usd"] for r in rows), 6),
            **{m: bootstrap_mean(_values(rows, m), seed=seed + i).to_dict() for i, m in enumerate(METRICS)},
            "novelty_distribution": {"count": len(scores), **dict(zip(
                ("min", "q25", "median", "q75", "max"),
                (None if q is None else round(q, 6) for q in quantiles), strict=True))},
            "jump_positions": {str(p): positions[p] for p in sorted(positions)}}


def _compare(rows: list[dict[str, Any]], condition: str, seed: int) -> dict[str, Any]:
    mine = [r for r in rows if r["condition"] == condition]
    base = [r for r in rows if r["condition"] == BASELINE]
    result = {}
    for i, metric in enumerate(METRICS):
        interval = bootstrap_difference(_values(mine, metric), _values(base, metric), seed=seed + i)
        result[metric] = {**interval.to_dict(), "excludes_zero": interval.excludes_zero}
    return result


def _projections(records: list[dict[str, Any]]) -> dict[str, tuple[np.ndarray, list[str]]]:
    """PCA per problem: problems sit in different regions, and one projection would show only that."""
    result = {}
    for problem in sorted({r["problem"] for r in records}):
        group = [r for r in records if r["problem"] == problem and r["vectors"]]
        if group:
            vectors = np.asarray([v for r in group for v in r["vectors"]])
            result[problem] = (metrics.pca_2d(vectors), [r["condition"] for r in group for _ in r["vectors"]])
    return result
