"""Evolve: what changes the workspace between cycles. Four evolvers behind the one `Evolver`
protocol (adaptive_skill/protocols.py), made by one factory: `single` (an LLM with a shell in a
sandbox, evolver.py), `team` (agents that write SKILL.md text and run no command, team/;
docs/team.md), `structured` (one JSON reply the host renders as a SKILL.md, structured.py) and
`distill` (no model: the passed attempts' worked commands as skills, distill.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.llm import Accounting
    from adaptive_skill.llm.base import LLM
    from adaptive_skill.protocols import Evolver
    from adaptive_skill.runs import RunDir


def make_evolver(config: EvolveConfig, llm: LLM, *, sandbox_factory: Callable[[], Any], run: RunDir | None = None,
                 accounting: Accounting | None = None, sampler: Callable[[int], LLM] | None = None) -> Evolver:
    """The evolver of `config.evolver.mode`. `sandbox_factory` is called only by the single
    evolver (the others run no command); `run` is the team's event sink and where the team, the
    structured and the distilling evolver find the changes the gate rejected, `accounting` the costs the
    team and the structured evolver record, `sampler` the evolver's model at a given sampling seed
    (the structured evolver's further samples, evolver.samples)."""
    if config.evolver.mode == "distill":
        from adaptive_skill.evolve.distill import DistillEvolver

        return DistillEvolver(config, run=run)
    if config.evolver.mode == "structured":
        from adaptive_skill.evolve.structured import StructuredEvolver

        return StructuredEvolver(llm, config, run=run, accounting=accounting, sampler=sampler)
    if config.evolver.mode == "team":
        from adaptive_skill.evolve.team import TeamEvolver

        return TeamEvolver(llm, config, run=run, accounting=accounting)
    from adaptive_skill.evolve.evolver import Evolver as SingleEvolver

    return SingleEvolver(llm, config, sandbox_factory)
