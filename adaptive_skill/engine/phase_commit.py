"""Commit: the gate's decision carried out. An accepted candidate (with gating.per_skill, without the
skills it dropped) is tagged evo-N and becomes the accepted workspace, its holdout rounds kept as
that workspace's; a rejected one is rolled back by a new commit (history kept)."""

from __future__ import annotations

from adaptive_skill.engine.holdout import export_baseline, holdout_rounds_dir, keep_rounds
from adaptive_skill.engine.placements import untried_placements
from adaptive_skill.engine.records import CommitResult, EvolveResult, GateResult, ObserveResult
from adaptive_skill.evolve.rules import skill_names, workspace_hash
from adaptive_skill.versioning import EVO_TAG


def commit(engine, n: int, evolved: EvolveResult, gated: GateResult, observed: ObserveResult) -> CommitResult:
    candidate = evolved.candidate
    if not candidate:
        return CommitResult(tag=None, commit=engine.state.accepted_commit, rolled_back=False)
    if gated.accepted:
        candidate_hash = evolved.candidate_hash
        untried: dict[str, str] | None = None
        if gated.dropped_skills:  # gating.per_skill: the candidate without the skills it dropped
            pruned = prune(engine, n, candidate, gated)
            made = tagged(engine, pruned)
            untried = made.metrics.get("untried_placements") if made else pruned_untried(engine, n, candidate, gated)
            candidate, candidate_hash = pruned, workspace_hash(engine.run_dir.workspace)
        else:  # a crash between tagging and the checkpoint left the tag: find it instead of tagging twice
            made = tagged(engine, candidate)
        tag = made.name if made else None
        if tag is None:
            tag = engine.repo.next_evo_tag()
            engine.repo.tag(tag, {
                "cycle": n, "holdout_mutated": gated.mutated_mean, "holdout_baseline": gated.baseline_mean,
                "delta": gated.delta, "batch_mean_score": observed.mean_score,
                "skills": len(skill_names(engine.run_dir.workspace)),
                "created": gated.shipped(evolved.changes.created_skills),
                "modified": gated.shipped(evolved.changes.modified_skills),
                # the holdout means and delta above are the whole candidate's, dropped skills included
                **({"holdout_of": "the whole candidate", "untried_placements": untried}
                   if gated.dropped_skills else {}),
                "cost": round(engine.accounting.totals().cost, 6),
                **(skill_metrics(gated) if gated.skills else {})},
                summary=f"cycle {n}: accepted ({gated.reason})", ref=candidate)
        engine.state.accepted_commit, engine.state.accepted_hash = candidate, candidate_hash
        if not gated.dropped_skills:  # a pruned candidate is not what the rounds ran: its rounds are its own
            keep_rounds(engine.run_dir.cycle_dir(n) / "gate-mutated", holdout_rounds_dir(engine, candidate_hash))
        engine.run_dir.event("mutation_accepted", cycle=n, tag=tag, commit=candidate)
        return CommitResult(tag=tag, commit=candidate, rolled_back=False, untried_placements=untried)
    if engine.repo.head() == candidate:
        message = f"cycle {n}: roll back rejected mutation {candidate[:10]}"
        engine.repo.rollback(engine.state.accepted_commit, message)
    engine.run_dir.event("mutation_rejected", cycle=n, rejected_commit=candidate, reason=gated.reason)
    return CommitResult(tag=None, commit=engine.repo.head(), rolled_back=True, rejected_commit=candidate)


def tagged(engine, commit: str):
    """The evo-N tag already on `commit` (a crash between tagging and the checkpoint), or None."""
    return next((t for t in engine.repo.tags() if t.commit == commit and EVO_TAG.match(t.name)), None)


def skill_metrics(gated: GateResult) -> dict:
    """What the tag says of the gate per skill: the skills kept, and each dropped one with its reason."""
    reasons = {d["skill"]: d["reason"] for d in gated.skills}
    return {"skills_kept": gated.kept_skills, "skills_dropped": {s: reasons.get(s) for s in gated.dropped_skills}}


def pruned_untried(engine, n: int, candidate: str, gated: GateResult) -> dict[str, str] | None:
    """The holdout tasks whose placed skill the pruned library changed to one no gate round ran there
    (engine/placements.py), logged and returned for the tag: the per-skill decisions vouch for the
    others only. A report, not a decision: when it cannot be computed (an embedder the driver cannot
    build, say), a warning says so, None is returned and the tag is made all the same."""
    try:
        baseline = engine.run_dir.baseline_dir(engine.state.accepted_hash) / "workspace"
        export_baseline(engine.repo, engine.state.accepted_commit, baseline, engine.state.accepted_hash)
        untried = untried_placements(engine, candidate, baseline, gated.kept_skills, gated.dropped_skills)
    except Exception as exc:  # noqa: BLE001 - a report must not cost the gate's decision
        detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
        engine.run_dir.event("placements_untried", cycle=n, tasks=None, placements=None, error=detail)
        engine.log(f"WARNING cycle {n}: the pruned library's placements were not checked ({detail})")
        return None
    engine.run_dir.event("placements_untried", cycle=n, tasks=len(untried), placements=untried)
    if untried:
        engine.log(f"cycle {n}: without {', '.join(gated.dropped_skills)}, the library places a skill no gate "
                   f"round tried on {len(untried)} holdout task(s): "
                   + ", ".join(f"{task} -> {skill}" for task, skill in sorted(untried.items())))
    return untried


def prune(engine, n: int, candidate: str, gated: GateResult) -> str:
    """The candidate with each dropped skill as the accepted workspace has it (a created one removed,
    a modified one restored), as a new commit on top of it; a commit already made for this (a crash
    before the checkpoint) is found and reused."""
    message = f"cycle {n}: the gate per skill drops {', '.join(gated.dropped_skills)}"
    head = engine.repo.head()
    if head != candidate and engine.repo.parents(head) == [candidate]:
        return head
    return engine.repo.restore_paths(engine.state.accepted_commit, [f"skills/{s}" for s in gated.dropped_skills],
                                     message)
