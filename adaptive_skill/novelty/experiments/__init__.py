"""Novelty experiments (docs/novelty-experiments.md): the proposal loop under several perspective
conditions on the same seed problems, then metrics with bootstrap intervals, tables and plots.

    problems.py    the problems file
    conditions.py  the five conditions and their perspective samplers
    store.py       one JSON record per (problem, condition, repeat): what makes a run resumable
    runner.py      runs the missing records, with progress and cost
    stats.py       bootstrap intervals of a mean and of a difference of means
    metrics.py     flexibility, jumps, diversity, PCA: pure functions on known inputs
    analysis.py    records -> per-run metrics -> per-condition summaries and comparisons with direct
    tables.py      JSON, CSV and markdown tables
    plots.py       matplotlib PNGs (the [experiments] extra)
    page.py        an HTML summary with the plots inlined
"""

from adaptive_skill.novelty.experiments.conditions import CONDITIONS, sampler_for
from adaptive_skill.novelty.experiments.problems import Problem, load_problems

__all__ = ["CONDITIONS", "Problem", "load_problems", "sampler_for"]
