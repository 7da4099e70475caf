"""The engine's typed phase results: what to_dict writes is what from_dict reads back, and the
JSON keeps the keys report/, replay and review read from cycles/<n>/<phase>.json."""

from __future__ import annotations

import json

from adaptive_skill.engine.records import (
    Checkpoint,
    CommitResult,
    ConvergeResult,
    CycleRecord,
    EvolveResult,
    GateResult,
    GateStatistic,
    ObserveResult,
    ProposeResult,
    SolveResult,
)
from adaptive_skill.evolve.outcome import Changes
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.observe.observations import ObservedItem


def _through_json(result):
    data = json.loads(json.dumps(result.to_dict()))
    again = type(result).from_dict(data)
    assert again.to_dict() == data
    return data, again


def test_every_phase_result_survives_its_json():
    verdict = {"score": 3.0, "category": "build", "outcome": "o", "failure_reason": "f", "status": "ok"}
    people = {"score": 8.0, "category": "build", "outcome": "Reviewed by ann: solved.", "status": "ok"}
    results = [
        SolveResult(tasks=["a"], results=[AttemptResult(task_id="a", agent="llm", passed=True, reward=1.0,
                                                                    failure_mode=None)]),
        ObserveResult(items=[ObservedItem(task="a", verdict=verdict, signals={"steps": 2}, compressed="not saved"),
                             ObservedItem(task="b", judge_error="no trajectory (timeout)"),
                             ObservedItem(task="c", verdict=people, reviewed=True, judge_verdict=verdict)],
                      mean_score=5.5, judge_errors=1, calibration={"n": 1}),
        EvolveResult(mutated=False, skipped="evolution is switched off"),
        EvolveResult(mutated=True, changes=Changes(added=["skills/x/SKILL.md"], created_skills=["x"]), summary="s",
                     reverted=[{"rule": "budget", "path": "skills/y"}], candidate="c0ffee", candidate_hash="h",
                     details={"violations": [], "repaired": [], "status": "done", "trajectories": [], "team": {}}),
        GateResult(accepted=False, reason="no mutation to gate", gated=False),
        GateResult(accepted=True, reason="r", gated=True, verdict="accept", score="verifier", rounds=2, rollouts=8,
                   statistic=GateStatistic(llr=1.5, delta=0.25, se=None, tasks=2, pairs=4, identical=1),
                   mutated_mean=0.75, baseline_mean=0.5, delta=0.25, round_scores=[{"t": [0.0, 1.0]}],
                   judge_check={"n": 0}, temperature=0.7, mutated_commit="c0ffee", baseline_commit="bead"),
        CommitResult(tag="evo-1", commit="c0ffee", rolled_back=False),
        CommitResult(tag=None, commit="bead", rolled_back=True, rejected_commit="c0ffee"),
        ConvergeResult(egl=0.5, new_skills=1, tasks=2, solved=1, converged=False),
        ProposeResult(seed=None, proposed=[], reason="no failure to start from"),
    ]
    for result in results:
        _through_json(result)
    observe, again = _through_json(results[1])
    assert "compressed" not in observe["items"][0] and "judge_verdict" not in observe["items"][0]
    assert observe["items"][2]["judge_verdict"] == verdict and again.items[2].score == 8.0


def test_the_json_keeps_the_keys_its_readers_use():
    # report/cycles.py, engine/gate_replay.py and the evolver's history read these keys
    ungated = GateResult(accepted=False, reason="no mutation to gate", gated=False).to_dict()
    assert ungated == {"accepted": False, "reason": "no mutation to gate", "gated": False}
    gated = GateResult(accepted=True, reason="r", gated=True, rounds=1,
                       statistic=GateStatistic(llr=0.0, delta=0.1, se=0.2, tasks=1, pairs=1, identical=0)).to_dict()
    assert gated["statistic"]["delta"] == 0.1 and {"per_task", "mutated_commit", "round_scores"} <= set(gated)
    skipped = EvolveResult(mutated=False, skipped="off").to_dict()
    assert skipped == {"mutated": False, "skipped": "off"}
    assert "rejected_commit" not in CommitResult(tag="evo-1", commit="c", rolled_back=False).to_dict()


def test_checkpoint_reads_what_older_runs_wrote():
    # version/saved_at are RunDir's; `accounting` was kept by runs before the cost journal; `converged`
    # appeared only after the first converge phase.
    old = {"cycle": 2, "done": ["solve"], "status": "stopped", "accepted_commit": "c", "accepted_hash": "h",
           "cycles": [{"cycle": 1, "tag": None, "accepted": False, "mutated": True, "created": [], "summary": None}],
           "egl": [0.0], "elapsed_sec": 12.5, "accounting": {"run": {}}, "version": 1, "saved_at": 1.0}
    state = Checkpoint.from_dict(old)
    assert state.cycles == [CycleRecord(1, None, False, True, [], None)] and not state.converged
    assert "accounting" not in state.to_dict() and Checkpoint.from_dict(state.to_dict()) == state


def test_gate_evidence_counts_each_task_once_and_skips_rows_it_cannot_read():
    """gate.json is read back from disk (skills log, the evolver's history): a row that is not an
    object, lacks its task or has no numeric difference (an unscored side) neither crashes the
    reader nor counts as "unchanged"."""
    gate = GateResult(accepted=False, reason="r", gated=True, rounds=2, rollouts=8, mutated_mean=0.5,
                      baseline_mean=None,
                      per_task=[{"task": "a", "difference": 0.5}, {"task": "b", "difference": -0.25},
                                {"task": "c", "difference": 0.0}, {"task": "d", "difference": None},
                                {"difference": 1.0}, "not a row", {"task": "e", "difference": True},
                                {"task": "f", "difference": float("nan")}, {"task": "g", "difference": "0.5"}])
    assert gate.moved() == (2, 1, 1)
    lines = gate.evidence()
    assert lines[0] == ("2 round(s), 8 attempts; holdout pass rate mutated 50% vs baseline n/a; "
                        "2 task(s) better, 1 worse, 1 unchanged")
    assert lines[1] == "per task (mutated - baseline): ? +1.00, a +0.50, b -0.25, c +0.00"
    assert lines[2] == "rejected: r"
    assert GateResult(accepted=False, reason="no holdout", gated=False).evidence() == ["not gated: no holdout"]


def test_an_older_gate_json_still_reads():
    """A gate.json written before judge_check.pairs and the per-task evidence (and one with keys this
    version does not know) reads back, and its evidence is what it can say."""
    old = {"accepted": True, "reason": "r", "gated": True, "verdict": "accept", "rounds": 1, "rollouts": 4,
           "statistic": {"llr": 2.6, "delta": 0.5, "se": 0.1, "tasks": 2, "pairs": 2, "identical": 0},
           "mutated_mean": 1.0, "baseline_mean": 0.5, "delta": 0.5,
           "judge_check": {"n": 4, "agreement": 0.75}, "a_key_from_the_future": 1}
    gate = GateResult.from_dict(old)
    assert gate.per_task == [] and gate.judge_check == {"n": 4, "agreement": 0.75} and gate.moved() == (0, 0, 0)
    assert gate.evidence()[-1] == "accepted: r" and len(gate.evidence()) == 2


def test_the_evolvers_history_counts_holdout_moves_as_the_gate_does(tmp_path):
    """engine/phase_evolve.history tells the evolver how many holdout tasks got better or worse: the counts are
    GateResult.moved()'s (one home), never a task's name."""
    from types import SimpleNamespace

    from adaptive_skill.engine.phase_evolve import history
    from adaptive_skill.runs import RunDir

    run_dir = RunDir(tmp_path)
    gate = GateResult(accepted=False, reason="r", gated=True, rounds=3, rollouts=12,
                      statistic=GateStatistic(llr=-1.0, delta=-0.1, se=0.1, tasks=3, pairs=9, identical=0),
                      per_task=[{"task": "secret-holdout-a", "difference": 0.5},
                                {"task": "secret-holdout-b", "difference": -1.0},
                                {"task": "secret-holdout-c", "difference": None}])
    run_dir.cycle_dir(1).mkdir(parents=True)
    (run_dir.cycle_dir(1) / "gate.json").write_text(json.dumps(gate.to_dict()))
    run_dir.cycle_dir(2).mkdir(parents=True)
    (run_dir.cycle_dir(2) / "gate.json").write_text(json.dumps({"accepted": True, "reason": "r", "gated": False}))
    state = SimpleNamespace(cycles=[CycleRecord(1, None, False, True, [], "added x"),
                                    CycleRecord(2, "evo-1", True, True, [], None),
                                    CycleRecord(3, None, False, False, [], None)])
    lines = history(SimpleNamespace(state=state, run_dir=run_dir))
    assert lines == ["cycle 1: added x -> rejected by gating (holdout: 3 round(s), mean difference -0.10; "
                     "1 task(s) better, 1 worse, 0 unchanged)",
                     "cycle 2: a change -> accepted as evo-1"]
    assert "secret" not in " ".join(lines)
