"""Explore (explore.passes): the batch's unpassed tasks attempted again, sampled hotter, each pass at
its own seed, until one attempt passes; what worked is written beside the observations. With
explore.agree (label-free) every batch task is attempted again until two of its attempts agree
(observe/agreement.py): the judge's passes of the batch are confirmed or not, as its fails are."""

from __future__ import annotations

import hashlib
from pathlib import Path

from adaptive_skill.engine.phase_observe import state_evidence
from adaptive_skill.engine.phase_solve import find_task, run_attempts
from adaptive_skill.engine.records import ExploreAttempt, ExploreResult, ObserveResult, SolveResult
from adaptive_skill.files import read_json, write_json_atomic
from adaptive_skill.trajectory.worked import worked_commands


def explore(engine, n: int, solved: SolveResult, observed: ObserveResult) -> ExploreResult:
    """Each batch task that did not pass (as the evolver counts a pass), attempted again with the
    agent sampling at explore.temperature, each pass at its own seed, until one attempt passes or
    explore.passes are spent; judged like the batch, except where the evolver sees the tests
    (trajectory_only off): a verified attempt is then decided by its tests, with no verdict. What
    each task's attempts did is written beside its observations (explored.json): the worked
    commands of a passed one, the scores. With explore.reflect an attempt is told what the task's
    attempt before it (the batch's, then the last pass's) did wrong (agent/reflect.py), where that
    attempt did not pass (as the evolver counts a pass: label-free, the judge's verdict).
    With explore.agree, a pass is the vote of observe/agreement.py over the task's attempts, the
    batch's included, and its outcome is written beside the observations (agreed.json), which the
    distiller reads in place of the batch's verdict; with explore.confirm_model another model's
    attempt must leave the counted attempt's files too (confirm)."""
    from adaptive_skill.agent.reflect import reflection
    from adaptive_skill.observe import JudgeItem
    from adaptive_skill.observe.agreement import AGREED, Vote, agreed, outcome, state_digest_of, trivial_change
    from adaptive_skill.observe.observations import EXPLORED, passed
    from adaptive_skill.sandbox.programs import Programs

    c = engine.config
    labels = {} if c.trajectory_only else {r.task_id: bool(r.passed) for r in solved.results
                                           if r.failure_mode != "unverified"}
    agree = c.explore.agree and c.trajectory_only
    # the vote's threshold: None counts agreement alone (explore.judge: false), the explore attempts unjudged
    threshold = c.judge.pass_threshold if c.explore.judge or not agree else None
    votes: dict[str, list[Vote]] = {}  # explore.agree: each task's attempts so far, the batch's first
    untouched: dict[str, str | None] = {}  # explore.agree: each task's files before any attempt
    if agree:
        from adaptive_skill.sandbox.state import capture_initial_state

        for item in observed.items:
            if item.worked is not None:  # it has a trajectory
                state = engine.run_dir.cycle_dir(n) / "solve" / "state" / item.task
                task = find_task(engine, item.task)
                initial_dir = engine.run_dir.cycle_dir(n) / "explore" / "untouched" / item.task
                initial = capture_initial_state(engine.provider, task, initial_dir)
                if initial.error:  # no telling its attempts from a no-op: not voted on (not counted)
                    engine.log(f"cycle {n} explore: {item.task}: the untouched files could not be read "
                               f"({initial.error}); not voted on")
                    continue
                untouched[item.task] = initial.digest
                votes[item.task] = [Vote(0, item.score, state_digest_of(state), list(item.worked),
                                         trivial=trivial_change(state, initial_dir, task.instruction))]
        todo = list(votes)
    else:
        todo = [item.task for item in observed.items
                if not passed(item.score, labels.get(item.task), c.judge.pass_threshold)]
    attempts: list[ExploreAttempt] = []
    found: set[str] = set()
    judge = engine.roles.judge()
    before = {r.task_id: r for r in solved.results}  # each task's attempt before
    # Whether the estimate passed each task's attempt before (the tests, where the evolver sees them).
    # The reflect note says that attempt did not succeed: it is told only where the estimate says so.
    # Under explore.agree the judge's passes are attempted again to be confirmed, and run 25 told
    # them the note too: sqlite-max-row and loop-create-files, right in the batch, were each re-tried
    # twice "another way", and the two wrong answers agreed and were distilled.
    passed_before = {item.task: passed(item.score, labels.get(item.task), c.judge.pass_threshold)
                     for item in observed.items}
    for index in range(c.explore.passes):
        tasks = [find_task(engine, task_id) for task_id in todo if task_id not in found]
        if not tasks:
            break
        notes = {t.id: note for t in tasks if c.explore.reflect and not passed_before.get(t.id)
                 and (last := before.get(t.id))
                 and last.trajectory_path
                 and (note := reflection(last.trajectory_path, Programs.from_dict(last.programs)))}
        config = c.model_copy(deep=True)
        config.models.agent.temperature = c.explore.temperature
        config.models.agent.seed = explore_seed(c.seed, n, index)
        title = f"cycle {n} explore {index + 1}/{c.explore.passes} at temperature {c.explore.temperature:g}"
        folder = engine.run_dir.cycle_dir(n) / "explore" / f"p{index + 1}"
        results = run_attempts(engine, tasks, engine.run_dir.workspace, folder, title, config=config, notes=notes,
                               keep_state=True)
        before.update({r.task_id: r for r in results})
        loaded = [(r, read_json(Path(r.trajectory_path), None) if r.trajectory_path else None,
                   None if c.trajectory_only or r.failure_mode == "unverified" else bool(r.passed))
                  for r in results]
        # Where the tests decide (labelled, verified), a verdict would change nothing: not asked
        # (run 19 spent 10 of its 26 explore minutes on verdicts only the report read).
        questions = [JudgeItem(find_task(engine, r.task_id).instruction, t, r.task_id,
                               evidence=state_evidence(engine, find_task(engine, r.task_id),
                                                       folder / "state" / r.task_id))
                     for r, t, label in loaded if t is not None and label is None and threshold is not None]
        judged = []
        if questions:  # labelled: none, and no empty judge phase on the screen
            with engine.display.phase(f"{title}: judge", len(questions), role="judge") as progress:
                judged = judge.judge_many(questions, workers=c.workers)
                progress.verdicts(judged, c.judge.pass_threshold)
        verdicts = iter(judged)
        for result, trajectory, label in loaded:
            verdict = next(verdicts) if trajectory is not None and label is None and threshold is not None else None
            score = float(verdict.score) if verdict is not None and verdict.status == "ok" else None
            if threshold is not None:  # unjudged, the attempt before's estimate stands for the reflect note
                passed_before[result.task_id] = passed(score, label, c.judge.pass_threshold)
            if agree:
                state = folder / "state" / result.task_id
                initial_dir = engine.run_dir.cycle_dir(n) / "explore" / "untouched" / result.task_id
                vote = Vote(index + 1, score, state_digest_of(state),
                            worked_commands(trajectory) if trajectory is not None else [],
                            trivial=trivial_change(state, initial_dir, find_task(engine, result.task_id).instruction))
                votes[result.task_id].append(vote)
                ok = agreed(votes[result.task_id], threshold, untouched.get(result.task_id)) is not None
            else:
                ok = trajectory is not None and passed(score, label, c.judge.pass_threshold)
            attempts.append(ExploreAttempt(task=result.task_id, attempt=index + 1,
                                           temperature=c.explore.temperature, score=score, passed=ok,
                                           commands=worked_commands(trajectory) if ok and trajectory else [],
                                           trajectory=result.trajectory_path,
                                           digest=vote.digest if agree else None))
            if ok:
                found.add(result.task_id)
    confirmed = confirm(engine, n, votes, untouched, threshold) if agree and c.explore.confirm_model else {}
    for item in attempts:  # a count the other model did not confirm is no pass, in every record
        if item.passed and not confirmed.get(item.task, {}).get("same", True):
            item.passed, item.commands = False, []
    explored = ExploreResult(tasks=todo, attempts=attempts,
                             agreed={t: hit.attempt if (hit := agreed(v, threshold, untouched.get(t)))
                                     and confirmed.get(t, {}).get("same", True) else None
                                     for t, v in votes.items()} if agree else None)
    observations = engine.run_dir.cycle_dir(n) / "observations"
    for task_id in todo:
        if (observations / task_id).is_dir():
            write_json_atomic(observations / task_id / EXPLORED,
                              [{k: v for k, v in a.to_dict().items() if k != "trajectory"}
                               for a in attempts if a.task == task_id])
            if agree:
                write_json_atomic(observations / task_id / AGREED,
                                  outcome(votes[task_id], threshold, untouched.get(task_id),
                                          confirmed=confirmed.get(task_id)))
    if agree:
        batch = sorted(t for t, a in (explored.agreed or {}).items() if a == 0)
        by_model = (f"; {sum(1 for v in confirmed.values() if v['same'])} of {len(confirmed)} count(s) confirmed by "
                    f"{c.explore.confirm_model}" if c.explore.confirm_model else "")
        engine.log(f"cycle {n} explore: {len(explored.found())} of {len(todo)} task(s) passed with two attempts "
                   f"agreeing ({len(batch)} the batch's attempt, confirmed{by_model})"
                   + (f": {', '.join(explored.found())}" if explored.found() else ""))
    else:
        engine.log(f"cycle {n} explore: {len(explored.found())} of {len(todo)} unpassed task(s) passed at "
                   f"temperature {c.explore.temperature:g}"
                   + (f" ({', '.join(explored.found())})" if explored.found() else ""))
    return explored


def confirm(engine, n: int, votes: dict, untouched: dict[str, str | None], threshold: float | None) -> dict[str, dict]:
    """explore.confirm_model: each task the vote counted, attempted once by that model (the accepted
    workspace, the agent's other settings and the batch's temperature, no reflect note, a seed of its
    own; under explore/confirm/<hash of the model>), its final files kept and hashed as the vote's
    are. Per task: the model, its attempt's digest, and whether it is the counted attempt's
    (`same`); a task it does not confirm is not counted. Two
    attempts of the 1.5B that make one mistake agree; the 0.5B's attempt, confirming run 27's counts,
    kept 7 right of 16 and none of the 7 wrong (benchmarks/probes/cross_model_probe.py)."""
    from adaptive_skill.observe.agreement import agreed, state_digest_of

    c = engine.config
    counted = {t: hit for t, v in votes.items() if (hit := agreed(v, threshold, untouched.get(t)))}
    if not counted:
        return {}
    config = c.model_copy(deep=True)
    config.models.agent.model = str(c.explore.confirm_model)
    config.models.agent.seed = explore_seed(c.seed, n, c.explore.passes)  # not any pass's
    folder = confirm_dir(engine.run_dir.cycle_dir(n), str(c.explore.confirm_model))
    tasks = [find_task(engine, t) for t in counted]
    run_attempts(engine, tasks, engine.run_dir.workspace, folder,
                 f"cycle {n} explore: confirm with {c.explore.confirm_model}", config=config, keep_state=True)
    out = {}
    for task in counted:
        digest = state_digest_of(folder / "state" / task)
        out[task] = {"model": c.explore.confirm_model, "digest": digest,
                     "same": digest is not None and digest == counted[task].digest}
    return out


def confirm_dir(cycle_dir: Path, model: str) -> Path:
    """Where explore.confirm_model's attempts of one cycle are kept: one folder per model, so a run
    resumed with another confirm_model does not reuse this one's attempts."""
    return cycle_dir / "explore" / "confirm" / hashlib.sha256(model.encode()).hexdigest()[:12]


def explore_seed(run_seed: int, cycle: int, index: int) -> int:
    """The agent's sampling seed in explore pass `index` of cycle `cycle`: every pass its own."""
    digest = hashlib.sha256(f"explore-{run_seed}-{cycle}-{index}".encode()).hexdigest()
    return int(digest[:8], 16)
