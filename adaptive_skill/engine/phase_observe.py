"""Observe: each batch attempt's signals, its compressed trajectory and the label-free judge's verdict
(with checks of the final state, judge.check_state), people's ratings where asked; written as the
evolver's observations, with the verifier's labels kept apart for calibration."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from adaptive_skill.engine.phase_solve import find_task
from adaptive_skill.engine.records import ObserveResult, SolveResult
from adaptive_skill.engine.stopping import Stop
from adaptive_skill.files import read_json
from adaptive_skill.observe.observations import ObservedItem, write_observations
from adaptive_skill.tasks import Task
from adaptive_skill.trajectory.worked import worked_commands
from adaptive_skill.workspace import Workspace

if TYPE_CHECKING:
    from adaptive_skill.ratings import HumanVerdicts


def observe(engine, n: int, solved: SolveResult) -> ObserveResult:
    from adaptive_skill.observe import JudgeItem, extract_signals
    from adaptive_skill.observe.calibration import calibrate_results

    results = solved.results
    people = None
    if engine.config.review.human_verdicts:  # people's ratings of escalated trajectories outrank the judge
        from adaptive_skill.ratings import HumanVerdicts

        people = HumanVerdicts.load(engine.run_dir.root, n, results, engine.config.judge.pass_threshold)
        if people.unrated and engine.config.review.wait_for_review:
            engine.run_dir.event("review_wait", cycle=n, tasks=people.unrated)
            engine.log(f"cycle {n}: waiting for people to rate {', '.join(people.unrated)} "
                       f"(adaptive-skill review {engine.run_dir.root}), then evolve --resume")
            raise Stop("stopped")
    items: list[ObservedItem] = []
    to_judge: list[tuple[ObservedItem, JudgeItem]] = []
    judge = engine.roles.judge()
    for result in results:
        task = find_task(engine, result.task_id)
        item = ObservedItem(task=task.id, programs=result.programs)
        trajectory = read_json(Path(result.trajectory_path), None) if result.trajectory_path else None
        if trajectory is None:
            # label-free, the failure mode is one bit of a label (None exactly when the tests passed)
            item.judge_error = ("no trajectory" if engine.config.trajectory_only
                                else f"no trajectory ({result.failure_mode})")
        else:
            item.signals = extract_signals(trajectory).to_dict()
            item.compressed = judge.compress(trajectory).text  # once: the judge and the evolver read it
            item.category, item.family, item.worked = task.category, task.family, worked_commands(trajectory)
            evidence = state_evidence(engine, task, engine.run_dir.cycle_dir(n) / "solve" / "state" / task.id)
            to_judge.append((item, JudgeItem(task.instruction, trajectory, task.id, item.compressed, evidence)))
        items.append(item)
    with engine.display.phase(f"cycle {n} judge", len(to_judge), role="judge") as progress:
        verdicts = judge.judge_many([question for _, question in to_judge], workers=engine.config.workers)
        progress.verdicts(verdicts, engine.config.judge.pass_threshold)
    for (item, _), verdict in zip(to_judge, verdicts, strict=True):
        if verdict.status == "ok":
            item.verdict = verdict.to_dict()
        else:
            item.judge_error = verdict.reason
    if people:
        items = [human_verdict(engine, n, people, item) for item in items]
    # For calibration only, never shown to the evolver; a task without tests has no label.
    labels = {r.task_id: r.passed for r in results if r.failure_mode != "unverified"}
    write_observations(engine.run_dir.cycle_dir(n) / "observations", items,
                       {task_id: find_task(engine, task_id).instruction for task_id in solved.tasks},
                       labels=None if engine.config.trajectory_only else labels,
                       skill_use=skill_use(engine, n, {item.task: item.score for item in items}))
    scores = [item.score for item in items if item.score is not None]
    return ObserveResult(items=items, mean_score=round(sum(scores) / len(scores), 3) if scores else None,
                         judge_errors=sum(1 for item in items if item.judge_error),
                         calibration=calibrate_results(labels, verdicts,
                                                       threshold=engine.config.judge.pass_threshold))


def state_evidence(engine, task: Task, state_dir: Path) -> str | None:
    """What the checks of the attempt's final state printed, for its judge (judge.check_state;
    observe/estimate.py: checked once, kept as state_dir/checks.json, which a resumed run reads
    instead of checking again). None when the checks are off or nothing could be checked."""
    if not engine.roles.checks_on() or not state_dir.is_dir():
        return None
    from adaptive_skill.observe.estimate import check_state, evidence_of

    # the judge's model writes the checks, cached by instruction
    return evidence_of(check_state(engine.roles.checker(), engine.provider, task, state_dir))


def skill_use(engine, n: int, scores: dict[str, float | None]) -> list[str]:
    """How the agent used each current skill in the train attempts of cycles 1..n (judge scores
    only: the evolver sees no holdout task and no test result through it)."""
    from adaptive_skill.observe.attribution import attribute, evolver_lines, observed_scores, solve_uses

    uses = []
    for cycle in range(1, n + 1):
        folder = engine.run_dir.cycle_dir(cycle)
        known = scores if cycle == n else observed_scores(folder / "observe.json")
        uses += solve_uses(folder / "solve", known, "train")
    return evolver_lines(attribute(uses), Workspace(engine.run_dir.workspace).skill_names())


def human_verdict(engine, n: int, people: HumanVerdicts, item: ObservedItem) -> ObservedItem:
    """People's rating in place of the judge's verdict (the judge's stays beside it, for the report)."""
    data = item.to_dict()
    human = people.replace(data)
    if not human:
        return item
    engine.run_dir.event("human_verdict", cycle=n, task=item.task, score=human["score"], raters=human["raters"])
    replaced = ObservedItem.from_dict(data)
    replaced.compressed = item.compressed
    return replaced
