"""The learning curve (`adaptive-skill curve`, docs/curve.md): the seed workspace, each tag an evolve
run accepted, an expert and other workspaces, all on one holdout split with the gate's seeds, paired
by task and repeat, with bootstrap intervals.

    stats.py      pass rates, paired differences, the headroom share; by-task bootstrap, seeded
    bench.py      the parts (seed, evolve, tags, expert, workspaces), resumable; state.json
    summary.py    the finished parts -> results.json (the schema run.py has always written)
    attempts.py   every attempt, compact (commands, exit codes, clipped outputs) -> attempts.jsonl.gz
    markdown.py   results.json -> results.md
    page.py       results.json -> curve.html (inline SVG, no network)
"""

from adaptive_skill.curve.bench import Bench, describe, identity, render, write_outputs
from adaptive_skill.curve.summary import cycle_evidence, expert_unseen, summarise

__all__ = ["Bench", "cycle_evidence", "describe", "expert_unseen", "identity", "render", "summarise",
           "write_outputs"]
