"""Holdout gating: a sequential paired test of the mutated workspace against the accepted one.

A round runs every holdout task once on each side with the same seed. After each round
`sequential_decision` says accept, reject or continue. The unit of evidence is the task: per task
the mean paired difference over the rounds so far, D_t = mean_r (mutated - baseline), scores 0-1.
The estimate is the mean of the D_t over tasks, and its variance comes from the spread of the D_t
BETWEEN tasks (a cluster-robust variance; never below what the variation of repeats inside the
tasks alone implies), never from the number of rounds alone: when repeats are identical, D_t stays
the same whatever the number of rounds, and so does the evidence. A change that fixes one task and
leaves the others alone keeps D = (1, 0, 0, 0, 0, 0) and is never accepted.

The statistic is the log-likelihood ratio of "the change improves by `effect`" against "it
regresses by `effect`" for a normal estimate d with variance V: LLR = 2 * effect * d / V (Wald's
SPRT with an estimated variance). Accept at LLR >= accept_at; reject at LLR <= -reject_at, a
boundary that rises in a straight line to 0 at max_rounds (a change that shows no gain by then is
not worth the rest of the rounds); no decision before min_rounds. The variance is floored at
min_task_sd^2 / tasks (tasks differ in how a change affects them, and six task means estimate
their spread poorly). At `max_rounds` without a decision the change is
rejected: ties are not an improvement. The defaults are chosen by benchmarks/perf/bench_gating.py.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import fmean

from adaptive_skill.config import GatingConfig

# task id -> (baseline score, mutated score), 0-1; None (or NaN) where a side could not be scored
Round = dict[str, tuple[float | None, float | None]]


@dataclass
class GateStatistic:
    rounds: int
    tasks: int  # tasks with at least one pair scored on both sides
    pairs: int
    delta: float | None  # mean over tasks of the task's mean paired difference (mutated - baseline)
    se: float | None  # its standard error (between-task, floored)
    llr: float  # 2 * effect * delta / se^2; 0 without evidence
    per_task: dict[str, float] = field(default_factory=dict)  # task -> mean paired difference
    identical: bool = False  # every task's pair was the same in every round


@dataclass
class SequentialDecision:
    verdict: str  # "accept", "reject" or "continue"
    reason: str
    statistic: GateStatistic

    @property
    def accepted(self) -> bool:
        return self.verdict == "accept"

    @property
    def final(self) -> bool:
        return self.verdict != "continue"

    def to_dict(self) -> dict:
        return asdict(self)


def statistic(rounds: list[Round], gating: GatingConfig) -> GateStatistic:
    pairs: dict[str, list[tuple[float, float]]] = {}
    for one_round in rounds:
        for task, (baseline, mutated) in one_round.items():
            if _scored(baseline) and _scored(mutated):
                pairs.setdefault(task, []).append((_unit(baseline), _unit(mutated)))
    per_task = {task: sum(m - b for b, m in seen) / len(seen) for task, seen in sorted(pairs.items())}
    n_pairs = sum(len(seen) for seen in pairs.values())
    identical = bool(pairs) and all(len(set(seen)) == 1 for seen in pairs.values())
    k = len(per_task)
    if k < 2:  # no spread between tasks to estimate: no evidence that generalises
        delta = fmean(per_task.values()) if per_task else None
        return GateStatistic(len(rounds), k, n_pairs, delta, None, 0.0, per_task, identical)
    delta = fmean(per_task.values())
    between = sum((d - delta) ** 2 for d in per_task.values()) / (k - 1) / k
    # The task means can vary no less than the repeats inside each task make them vary.
    within_df = n_pairs - k
    within = (sum((m - b - per_task[task]) ** 2 for task, seen in pairs.items() for b, m in seen)
              / within_df / n_pairs) if within_df > 0 else 0.0
    variance = max(between, within, gating.min_task_sd ** 2 / k)
    llr = 2 * gating.effect * delta / variance
    return GateStatistic(len(rounds), k, n_pairs, delta, variance ** 0.5, llr, per_task, identical)


def sequential_decision(rounds: list[Round], gating: GatingConfig) -> SequentialDecision:
    """`rounds`: one dict per finished round, task id -> (baseline score, mutated score) on 0-1
    (None where one side could not be scored). Pure: the engine, replay, tests and the benchmark
    all call this."""
    stat = statistic(rounds, gating)
    n = len(rounds)
    told = (f"LLR {stat.llr:+.2f} after {n} round(s) over {stat.tasks} task(s)"
            + (f", delta {stat.delta:+.3f} (se {stat.se:.3f})" if stat.se is not None else ""))
    if n and stat.tasks == 0:
        return SequentialDecision("reject", "no holdout task could be scored on both sides", stat)
    if n >= gating.min_rounds:
        if stat.llr >= gating.accept_at:
            return SequentialDecision("accept", f"{told} >= {gating.accept_at:g}", stat)
        if n >= gating.max_rounds:
            return SequentialDecision("reject", f"{told}: no clear improvement within max_rounds "
                                                f"{gating.max_rounds}", stat)
        floor = reject_boundary(n, gating)
        if stat.llr <= floor:
            return SequentialDecision("reject", f"{told} <= {floor:+.2f}", stat)
        if stat.identical and n >= gating.identical_rounds:
            return SequentialDecision("reject", f"{told}: every pair repeated unchanged for {n} rounds, so more "
                                                f"rounds add no evidence (runs do not vary: gating.temperature?)", stat)
    if n >= gating.max_rounds:
        return SequentialDecision("reject", f"{told}: no clear improvement within max_rounds {gating.max_rounds}",
                                  stat)
    return SequentialDecision("continue", told, stat)


def reject_boundary(n: int, gating: GatingConfig) -> float:
    """-reject_at after the first round, rising in a straight line to 0 at max_rounds: a change
    that has shown no improvement by then is not worth the remaining rounds (futility)."""
    return -gating.reject_at * (1 - n / gating.max_rounds)


def _scored(score: float | None) -> bool:
    return score is not None and math.isfinite(score)  # a NaN reward is no score


def _unit(score: float) -> float:
    return 0.0 if score <= 0.0 else 1.0 if score >= 1.0 else float(score)


# -- a gate per skill ------------------------------------------------------------------------------
#
# With the skill placed in the prompt (skill_in_prompt_tokens), each holdout attempt of the candidate
# is given one skill, the one placed for its task, and a skill acts only there. So the gate's rounds
# can judge each changed skill on the tasks it was placed for: the same statistic as the whole
# candidate's, over those tasks alone. With m skills judged on the same rounds, each skill's
# boundaries move out by ln m (Wald's bound on a false acceptance, e^-A, held for the family of m
# tests: Bonferroni), so that keeping any skill that does not help stays about as rare as accepting a
# whole candidate that does not (benchmarks/perf/bench_skill_gate.py simulates it).


@dataclass
class SkillDecision:
    skill: str
    tasks: list[str]  # the holdout tasks it was placed for on the candidate's side
    verdict: str  # "keep", "drop" or "continue"
    reason: str
    statistic: GateStatistic | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def skill_decisions(rounds: list[Round], placed: dict[str, str | None], skills: list[str],
                    gating: GatingConfig, final: bool = False) -> dict[str, SkillDecision]:
    """Each of `skills` (the candidate's changed skills) judged on the tasks `placed` gives it (task ->
    the skill placed for it on the candidate's side, None: none). A skill whose own test accepts is
    kept, one whose test rejects is dropped; one still undecided is "continue", or, when `final`
    (no round is left), dropped: no evidence that it helps is no reason to ship it. A skill placed for
    fewer than two holdout tasks cannot be judged (no spread between tasks) and is dropped. A skill's
    rounds run to gating.skill_rounds (skill_max_rounds, else max_rounds): its futility boundary
    rises to 0 there, and a round of `rounds` may hold only some tasks (the skills' own rounds)."""
    shift = math.log(len(skills)) if len(skills) > 1 else 0.0
    strict = gating.model_copy(update={"accept_at": gating.accept_at + shift, "reject_at": gating.reject_at + shift,
                                       "effect": gating.skill_effect, "max_rounds": gating.skill_rounds})
    out: dict[str, SkillDecision] = {}
    for skill in skills:
        tasks = sorted(t for t, s in placed.items() if s == skill)
        if len(tasks) < 2:
            out[skill] = SkillDecision(skill, tasks, "drop", f"placed for {len(tasks)} holdout task(s): "
                                                             "too few to judge it on its own")
            continue
        decision = sequential_decision([{t: r[t] for t in tasks if t in r} for r in rounds], strict)
        verdict = {"accept": "keep", "reject": "drop"}.get(decision.verdict, "drop" if final else "continue")
        reason = decision.reason + (" (undecided when the rounds ran out)" if decision.verdict == "continue"
                                    and final else "")
        if gating.skill_max_rounds is not None:  # the cap that decided is the skills' own
            reason = reason.replace(f"max_rounds {strict.max_rounds}", f"skill_max_rounds {strict.max_rounds}")
        out[skill] = SkillDecision(skill, tasks, verdict, reason, decision.statistic)
    return out
