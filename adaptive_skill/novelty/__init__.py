"""Novelty-driven task proposal (docs/novelty.md): an LLM proposes tasks from sampled expert or
domain perspectives, embedding novelty scores each one, and a strategy decides when to stop.

    metrics.py       NoveltyTracker: centroid distance, nearest, jumps, running summary
    clusters.py      OnlineClusters: one-pass clustering for the coverage strategy
    archive.py       EliteArchive: MAP-Elites cells (category x difficulty), best task per cell
    strategies.py    the stop rules: breakthrough, exhaust, coverage
    perspectives.py  occupations and Dewey domains (data/*.yaml) and the sampler
    tasks.py         ProposedTask, the structured reply
    prompts.py       the proposer's messages in English and Chinese
    proposer.py      NoveltyTaskProposer: the loop
    display.py       the command's terminal output
"""

from adaptive_skill.novelty.archive import EliteArchive
from adaptive_skill.novelty.clusters import OnlineClusters
from adaptive_skill.novelty.metrics import NoveltyScore, NoveltyTracker, TrajectorySummary
from adaptive_skill.novelty.perspectives import (
    Domain,
    Occupation,
    Perspective,
    PerspectiveSampler,
    Sampler,
    load_domains,
    load_occupations,
)
from adaptive_skill.novelty.proposer import Iteration, NoveltyTaskProposer, ProposalRun, Stop
from adaptive_skill.novelty.strategies import Breakthrough, Coverage, Exhaust, StopRule, stop_rule
from adaptive_skill.novelty.tasks import ProposedTask, task_schema

__all__ = [
    "Breakthrough", "Coverage", "Domain", "EliteArchive", "Exhaust", "Iteration", "NoveltyScore", "NoveltyTaskProposer",
    "NoveltyTracker", "Occupation", "OnlineClusters", "Perspective", "PerspectiveSampler", "ProposalRun",
    "ProposedTask", "Sampler", "Stop", "StopRule", "TrajectorySummary", "load_domains", "load_occupations",
    "stop_rule", "task_schema",
]
