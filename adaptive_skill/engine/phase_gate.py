"""Gate: the candidate against the accepted workspace on the holdout tasks, round by round (holdout.py
runs and scores each round) until the sequential rule decides (sequential.py), the judge checked
against the verifier on the way; with gating.per_skill, then the skills' own rounds on the tasks of the
skills still undecided (gating.skill_max_rounds). The Commit phase carries the decision out
(phase_commit.py)."""

from __future__ import annotations

from pathlib import Path

from adaptive_skill.engine.holdout import (
    SKILL_ROUNDS,
    attempt_tasks,
    evaluate_holdout,
    export_baseline,
    holdout_rounds_dir,
    score_round,
)
from adaptive_skill.engine.records import EvolveResult, GateResult, GateStatistic
from adaptive_skill.engine.sequential import (
    Round,
    SequentialDecision,
    SkillDecision,
    sequential_decision,
    skill_decisions,
)


def gate(engine, n: int, evolved: EvolveResult) -> GateResult:
    if not evolved.mutated:
        return GateResult(accepted=False, reason="no mutation to gate", gated=False)
    if not engine.config.gating.enabled:
        return GateResult(accepted=True, reason="gating is switched off", gated=False)
    if not engine.holdout:
        return GateResult(accepted=False, reason="no holdout tasks (holdout_ratio is 0)", gated=False)
    cycle_dir = engine.run_dir.cycle_dir(n)
    baseline_dir = engine.run_dir.baseline_dir(engine.state.accepted_hash)
    export_baseline(engine.repo, engine.state.accepted_commit, baseline_dir / "workspace", engine.state.accepted_hash)
    g = engine.config.gating
    # Round r of the mutated side is paired with round r of the accepted workspace (same tasks,
    # same seed). The accepted workspace's rounds are kept by its hash and the sampling settings:
    # while it stays accepted, later gates reuse them and run only the rounds they lack.
    baseline_rounds = holdout_rounds_dir(engine, engine.state.accepted_hash)
    reused = sum(1 for r in range(g.max_rounds) if (baseline_rounds / f"r{r}" / "results").is_dir())
    rounds: list[Round] = []
    judged: list[tuple[float, bool]] = []  # (judge score, verifier passed) of every labelled gate attempt
    decision: SequentialDecision | None = None
    # gating.per_skill: each created or modified skill is judged on the tasks it was placed for
    changed = sorted(set(evolved.changes.created_skills) | set(evolved.changes.modified_skills)) if g.per_skill else []
    placed: dict[str, str | None] = {}
    per_skill: dict[str, SkillDecision] = {}
    for r in range(g.max_rounds):
        title = f"cycle {n} gate round {r + 1}"
        mutated = evaluate_holdout(engine, engine.run_dir.workspace, cycle_dir / "gate-mutated", f"{title} (mutated)",
                                   r)
        baseline = evaluate_holdout(engine, baseline_dir / "workspace", baseline_rounds, f"{title} (baseline)", r)
        rounds.append({task: (baseline.scores.get(task), mutated.scores.get(task))
                       for task in sorted(set(mutated.scores) | set(baseline.scores))})
        judged += mutated.judged + baseline.judged
        decision = sequential_decision(rounds, g)
        stat = decision.statistic
        engine.run_dir.event("gate_round", cycle=n, round=r + 1, verdict=decision.verdict, llr=round(stat.llr, 4),
                             delta=_round(stat.delta), se=_round(stat.se), tasks=stat.tasks, pairs=stat.pairs)
        if changed:
            remember_placements(placed, mutated.placed)
            per_skill = skill_decisions(rounds, placed, changed, g, final=r + 1 >= g.skill_rounds)
            for one in per_skill.values():
                engine.run_dir.event("gate_skill", cycle=n, round=r + 1, skill=one.skill, verdict=one.verdict,
                                     tasks=len(one.tasks), llr=round(one.statistic.llr, 4) if one.statistic else None)
            if r + 1 >= g.min_rounds and all(d.verdict != "continue" for d in per_skill.values()):
                break
            continue
        if decision.final:
            break
    assert decision is not None  # max_rounds >= 1
    whole = len(rounds)  # the whole candidate's rounds: every holdout task on both sides
    skill_attempts = 0
    for r in range(whole, g.skill_rounds if changed else whole):
        if all(d.verdict != "continue" for d in per_skill.values()):
            break
        undecided = sorted(s for s, d in per_skill.items() if d.verdict == "continue")
        extra, per_skill, seen = skill_round(engine, f"cycle {n} gate round {r + 1}", r, rounds, placed, per_skill,
                                             changed, (engine.run_dir.workspace, cycle_dir / "gate-mutated"),
                                             (baseline_dir / "workspace", baseline_rounds))
        skill_attempts += extra
        judged += seen
        for skill in undecided:
            one = per_skill[skill]
            engine.run_dir.event("gate_skill", cycle=n, round=r + 1, skill=one.skill, verdict=one.verdict,
                                 tasks=len(one.tasks), llr=round(one.statistic.llr, 4) if one.statistic else None)
    stat = decision.statistic
    check = judge_check(engine, n, judged)
    per_task = [{"task": task, "baseline": _round(_mean([r[task][0] for r in rounds[:whole] if task in r])),
                 "mutated": _round(_mean([r[task][1] for r in rounds[:whole] if task in r])),
                 "difference": _round(difference)} for task, difference in stat.per_task.items()]
    scored = [row for row in per_task if row["baseline"] is not None and row["mutated"] is not None]
    mutated_mean = _mean([row["mutated"] for row in scored])
    baseline_mean = _mean([row["baseline"] for row in scored])
    rollouts = 2 * len(engine.holdout) * whole + skill_attempts
    accepted, verdict, reason = decision.accepted, decision.verdict, decision.reason
    kept = [s for s, d in per_skill.items() if d.verdict == "keep"]
    dropped = [s for s, d in per_skill.items() if d.verdict != "keep"]
    if changed:  # the skills decide; the whole candidate's statistic is kept for the record
        accepted, verdict = bool(kept), "accept" if kept else "reject"
        reason = (f"per skill: kept {', '.join(kept) or 'none'}; dropped {', '.join(dropped) or 'none'} "
                  f"(whole candidate: {decision.reason})")
    engine.run_dir.event("gate_decision", cycle=n, verdict=verdict, rounds=whole, rollouts=rollouts,
                         skill_rounds=len(rounds) - whole,
                         baseline_rounds_reused=min(reused, whole), llr=round(stat.llr, 4),
                         delta=_round(stat.delta), reason=reason)
    result = GateResult(accepted=accepted, verdict=verdict, reason=reason, gated=True,
                        score=g.score, rounds=whole, rollouts=rollouts,
                        baseline_rounds_reused=min(reused, whole),
                        statistic=GateStatistic(llr=round(stat.llr, 4), delta=_round(stat.delta),
                                                se=_round(stat.se), tasks=stat.tasks, pairs=stat.pairs,
                                                identical=stat.identical),
                        mutated_mean=_round(mutated_mean), baseline_mean=_round(baseline_mean),
                        delta=_round(stat.delta), per_task=per_task,
                        unscored=sorted(t.id for t in engine.holdout if t.id not in stat.per_task),
                        round_scores=[{task: list(pair) for task, pair in one.items()} for one in rounds[:whole]],
                        skill_round_scores=[{task: list(pair) for task, pair in one.items()}
                                            for one in rounds[whole:]],
                        judge_check=check, temperature=g.temperature,
                        mutated_commit=evolved.candidate, baseline_commit=engine.state.accepted_commit,
                        skills=[d.to_dict() for d in per_skill.values()], kept_skills=kept, dropped_skills=dropped)
    for line in result.evidence():
        engine.log(f"cycle {n} gate: {line}")
    return result


def skill_round(engine, title: str, r: int, rounds: list[Round], placed: dict[str, str | None],
               per_skill: dict[str, SkillDecision], changed: list[str], mutated: tuple[Path, Path],
               baseline: tuple[Path, Path]) -> tuple[int, dict[str, SkillDecision], list[tuple[float, bool]]]:
    """One of the skills' own rounds (gating.skill_max_rounds), the (r + 1)th a skill is judged on: the
    holdout tasks placed for the skills still undecided, alone, on both sides (each a workspace and the
    folder its rounds are kept in), sampled as gate round SKILL_ROUNDS + r (holdout.py: a seed stream
    no whole round or curve uses). The round is appended to `rounds` and the undecided skills decided
    again; a decided skill keeps its decision. Returns the attempts it ran, the decisions, and the
    (judge score, verifier passed) pairs of its attempts for the judge check."""
    g = engine.config.gating
    open_skills = {s for s, d in per_skill.items() if d.verdict == "continue"}
    tasks = [t for t in engine.holdout if placed.get(t.id) in open_skills]
    title = f"{title}, the undecided skills' {len(tasks)} task(s)"
    sides = [score_round(engine, attempt_tasks(engine, tasks, workspace, out, f"{title} ({side})", SKILL_ROUNDS + r))
             for side, (workspace, out) in (("mutated", mutated), ("baseline", baseline))]
    rounds.append({task.id: (sides[1].scores.get(task.id), sides[0].scores.get(task.id)) for task in tasks})
    again = skill_decisions(rounds, placed, changed, g, final=r + 1 >= g.skill_rounds)
    decided = {s: again[s] if s in open_skills else d for s, d in per_skill.items()}
    return 2 * len(tasks), decided, sides[0].judged + sides[1].judged


def remember_placements(placed: dict[str, str | None], seen: dict[str, str | None]) -> None:
    """Add a round's placements (task -> the skill in its prompt) to `placed`. The same library places
    the same skill every round; a round whose attempt left no trajectory says None, which a later
    round's placement replaces (else the task would be judged for no skill)."""
    for task, skill in seen.items():
        if placed.get(task) is None:
            placed[task] = skill


def judge_check(engine, n: int, judged: list[tuple[float, bool]]) -> dict:
    """The judge against the verifier's labels on this cycle's holdout attempts (labels the
    evolver never sees); loud when it disagrees too often."""
    from adaptive_skill.observe.calibration import metrics

    threshold = engine.config.judge.pass_threshold
    check = {"threshold": threshold, **metrics([s for s, _ in judged], [p for _, p in judged], threshold)}
    check["agreement"] = check.pop("accuracy")
    check["pairs"] = [[round(score, 3), passed] for score, passed in judged]  # pooled per run by the report
    g = engine.config.gating
    disagreement = None if check["agreement"] is None else 1 - check["agreement"]
    check["warning"] = bool(check["n"] >= g.judge_min_attempts and disagreement is not None
                            and disagreement > g.judge_max_disagreement)
    engine.run_dir.event("gate_judge_check", cycle=n, n=check["n"], agreement=check["agreement"],
                         auroc=check["auroc"], warning=check["warning"])
    if check["warning"]:
        engine.run_dir.event("judge_disagrees", cycle=n, n=check["n"], disagreement=round(disagreement, 4),
                             limit=g.judge_max_disagreement, auroc=check["auroc"])
        engine.log(f"WARNING cycle {n}: the judge disagrees with the verifier on {disagreement:.0%} of "
                   f"{check['n']} holdout attempts (limit {g.judge_max_disagreement:.0%}, AUROC {check['auroc']}): "
                   f"its scores steer the evolver and cannot be trusted on this suite")
    return check


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)
