"""Propose (task_proposal.enabled): new train tasks from the cycle's failures, and the ones admitted
to the train pool, which Solve rotates in slots of their own."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from adaptive_skill.engine.records import ObserveResult, ProposeResult
from adaptive_skill.engine.stopping import budget_stops
from adaptive_skill.tasks import scale_timeouts

if TYPE_CHECKING:
    from adaptive_skill.proposals import AdmittedTask


def propose(engine, n: int, observed: ObserveResult) -> ProposeResult:
    """Seed the novelty loop with this cycle's failures; the proposer writes its best ideas as whole
    tasks, and the sound ones, most novel first, join the train pool from the next cycle on."""
    from adaptive_skill.embed import make_embedder
    from adaptive_skill.proposals import TaskProposer, failure_seed

    config, roles = engine.config, engine.roles
    seed = failure_seed([i.to_dict() for i in observed.items], config.judge.pass_threshold)
    if seed is None:
        return ProposeResult(seed=None, proposed=[], reason="no failure to start from")
    proposer = TaskProposer(config, roles.llm("proposer"), make_embedder(config.models.embedder),
                            root=engine.run_dir.root / "proposals", sandbox_factory=roles.proposer_sandbox,
                            provider=engine.provider, accounting=engine.accounting,
                            feasibility=roles.feasibility_agent if config.task_proposal.feasibility else None)
    pool = engine.suite + [a.task for a in admitted_tasks(engine, n)]  # holdout too: no near copy of it may train
    with budget_stops(engine):
        proposed = proposer.run(n, seed, pool, engine.run_dir.cycle_dir(n) / "propose")
    for record in proposed.records:
        engine.run_dir.event("task_proposed", cycle=n, task=record.id, category=record.category,
                             status=record.status, reason=record.reason, rejected_check=record.rejected_check,
                             novelty=record.novelty)
    nothing = None if proposed.records else f"the novelty loop gave no task ({proposed.ideas_stop})"
    result = ProposeResult(seed=seed, proposed=proposed.records, ideas_stop=proposed.ideas_stop, reason=nothing)
    counts = result.counts()
    engine.log(f"cycle {n} propose: {counts['proposed']} proposed, {counts['built']} built, {counts['sound']} sound, "
               f"{counts['admitted']} join the train pool")
    return result


def admitted_tasks(engine, n: int) -> list[AdmittedTask]:
    """The proposed tasks admitted before cycle `n` (train only, never holdout; none unless enabled)."""
    from adaptive_skill.proposals import load_admitted

    admitted = load_admitted(engine.run_dir.root / "proposals", n, engine.config.task_proposal.build_timeout_sec)
    multiplier = engine.config.sandbox.timeout_multiplier
    return [replace(a, task=scale_timeouts(a.task, multiplier)) for a in admitted]
