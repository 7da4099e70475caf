"""Evolve: the evolver (evolver.mode) changes a copy of the accepted workspace from the cycle's
observations and the history of earlier changes, in its sandbox, the rules enforced in code; a change
is committed as a candidate for the gate."""

from __future__ import annotations

from adaptive_skill.engine.records import EvolveResult, GateResult
from adaptive_skill.evolve.rules import workspace_hash
from adaptive_skill.files import read_json
from adaptive_skill.progress import printable_line


def evolve(engine, n: int) -> EvolveResult:
    from adaptive_skill.evolve import make_evolver

    c = engine.config
    if not (c.evolve_skills or c.evolve_prompts or c.evolve_memory):
        return EvolveResult(mutated=False, skipped="evolution is switched off")
    reset_workspace(engine)  # a resumed evolve starts again from the accepted workspace
    cycle_dir = engine.run_dir.cycle_dir(n)
    drafts = cycle_dir / "drafts" if c.solver_proposed else None
    roles = engine.roles
    evolver = make_evolver(c, roles.llm("evolver"), sandbox_factory=roles.evolver_sandbox, run=engine.run_dir,
                           accounting=engine.accounting, sampler=roles.evolver_at)
    with engine.display.phase(f"cycle {n} evolve", 1, role="evolver") as progress:
        outcome = evolver.evolve(engine.run_dir.workspace, cycle_dir / "observations", cycle_dir / "evolve",
                                 history=history(engine), drafts=drafts, task_id=f"evolve-{n}")
        progress.finished("evolver", "done", outcome.status)
    output = EvolveResult.from_dict({**outcome.to_dict(), "candidate": None, "candidate_hash": None})
    if outcome.mutated:
        output.candidate = engine.repo.snapshot(f"cycle {n}: candidate mutation\n\n{outcome.summary or ''}")
        output.candidate_hash = workspace_hash(engine.run_dir.workspace)
    changed = ", ".join(outcome.changes.paths()) if outcome.mutated else "no change"
    reverted = f"; reverted {len(outcome.reverted)} violation(s)" if outcome.reverted else ""
    engine.log(f"cycle {n} evolve: {changed}{reverted}")
    if outcome.summary:
        engine.log(f"  evolver: {printable_line(outcome.summary)}")
    for violation in outcome.violations:  # why a change was refused or undone, as the rules said it
        engine.log(f"  {violation.rule}: {printable_line(violation.message)}")
    return output


def history(engine) -> list[str]:
    """Each earlier change and the gate's decision on it, with its evidence: rounds, the mean
    difference and how many holdout tasks got better or worse. Counts only, never a holdout task's
    name or result: what the evolver learns of the holdout is whether its change helped."""
    lines = []
    for cycle in engine.state.cycles:
        if not cycle.mutated:
            continue
        verdict = f"accepted as {cycle.tag}" if cycle.accepted else "rejected by gating"
        saved = read_json(engine.run_dir.cycle_dir(cycle.cycle) / "gate.json")
        gate = GateResult.from_dict(saved) if saved is not None else None
        if gate is not None and gate.rounds:
            delta = gate.statistic.delta if gate.statistic else None
            better, worse, same = gate.moved()  # the count the engine's log and skills log show
            verdict += (f" (holdout: {gate.rounds} round(s), mean difference {delta or 0:+.2f}; "
                        f"{better} task(s) better, {worse} worse, {same} unchanged)")
        lines.append(f"cycle {cycle.cycle}: {cycle.summary or 'a change'} -> {verdict}")
    return lines


def reset_workspace(engine) -> None:
    """Work tree = the accepted workspace, history untouched: uncommitted edits are dropped, and a
    candidate committed by a run that died before recording it is undone by a rollback commit."""
    engine.repo.reset_to(engine.state.accepted_commit, "discard an unrecorded mutation (resumed run)")
