"""The vote of explore.agree (observe/agreement.py) and how the distiller reads it."""

import json

from adaptive_skill.config import EvolveConfig
from adaptive_skill.evolve.distill import passed_attempts
from adaptive_skill.evolve.relevance import NO_FAILURES
from adaptive_skill.observe.agreement import AGREED, Vote, agreed, outcome, state_digest_of
from adaptive_skill.sandbox.state import MANIFEST


def test_a_pass_counts_only_when_another_attempt_left_the_same_files():
    assert agreed([Vote(0, 9.0, "a"), Vote(1, 9.0, "b")], 7) is None  # two passes, two different states
    assert agreed([Vote(0, 9.0, "a")], 7) is None  # a lone attempt, however sure the judge
    hit = agreed([Vote(0, 9.0, "a"), Vote(1, 2.0, "b"), Vote(2, 3.0, "a")], 7)
    assert hit is not None and hit.attempt == 0  # the failed verdict's attempt still votes for the state
    assert agreed([Vote(0, 2.0, "a"), Vote(1, 3.0, "a")], 7) is None  # agreement without a pass is no pass
    hit = agreed([Vote(0, 2.0, "a"), Vote(1, 8.0, "b"), Vote(2, 9.0, "b")], 7)
    assert hit is not None and hit.attempt == 1  # the first passed one of the agreeing pair



def test_without_the_judge_agreement_alone_counts():
    """explore.judge: false (threshold None): two attempts that left the same files count whatever the
    scores (the explore attempts have none); the untouched files, a trivial change and no digest
    still agree with nothing."""
    hit = agreed([Vote(0, 2.0, "a"), Vote(1, None, "a")], None)
    assert hit is not None and hit.attempt == 0
    assert agreed([Vote(0, 2.0, "a"), Vote(1, None, "b")], None) is None
    assert agreed([Vote(0, None, "u"), Vote(1, None, "u")], None, untouched="u") is None
    assert agreed([Vote(0, None, "a", trivial=True), Vote(1, None, "a", trivial=True)], None) is None
    assert agreed([Vote(0, None, None), Vote(1, None, None)], None) is None
    assert outcome([Vote(0, 2.0, "a"), Vote(1, None, "a")], None)["passed"] is True
    assert outcome([Vote(0, 2.0, "a"), Vote(1, None, "a")], 7)["passed"] is False  # with the judge: no pass


def test_explore_judge_off_needs_the_vote(tmp_path):
    import pytest

    base = {"paths": {"workspace": str(tmp_path), "suite": str(tmp_path), "runs_dir": str(tmp_path / "runs")}}
    EvolveConfig.model_validate({**base, "explore": {"passes": 1, "agree": True, "judge": False}})
    with pytest.raises(ValueError, match="explore.judge: false needs explore.agree"):
        EvolveConfig.model_validate({**base, "explore": {"passes": 1, "agree": False, "judge": False}})

def test_two_attempts_that_changed_nothing_do_not_agree():
    """run 25: two attempts that left the task's files as a fresh container holds them agreed, and the
    judge's pass of one counted; the untouched files agree with nothing."""
    votes = [Vote(0, 9.0, "untouched"), Vote(1, 10.0, "untouched")]
    assert agreed(votes, 7) is not None and agreed(votes, 7, untouched="untouched") is None
    assert agreed(votes + [Vote(2, 9.0, "x"), Vote(3, 2.0, "x")], 7, untouched="untouched").attempt == 2
    assert outcome(votes, 7, "untouched")["untouched"] == "untouched"


def test_no_digest_never_agrees():
    assert agreed([Vote(0, 9.0, None), Vote(1, 9.0, None)], 7) is None  # two uncaptured states are not the same
    assert agreed([Vote(0, 9.0, ""), Vote(1, 9.0, "")], 7) is None
    assert agreed([Vote(0, None, "a"), Vote(1, None, "a")], 7) is None  # no verdict


def test_outcome_keeps_every_vote_and_the_counted_commands():
    votes = [Vote(0, 9.0, "a", ["echo 1 > f"]), Vote(1, 9.0, "a", ["echo 1 > f; true"])]
    assert outcome(votes, 7) == {"passed": True, "attempt": 0, "commands": ["echo 1 > f"], "untouched": None, "votes": [
        {"attempt": 0, "score": 9.0, "digest": "a"}, {"attempt": 1, "score": 9.0, "digest": "a"}]}
    assert outcome(votes[:1], 7)["passed"] is False


def test_a_count_another_model_did_not_confirm_is_no_count():
    votes = [Vote(0, 9.0, "a", ["echo 1 > f"]), Vote(1, 3.0, "a")]
    same = {"model": "local/qwen2.5-coder-0.5b", "digest": "a", "same": True}
    assert outcome(votes, 7, confirmed=same)["passed"] is True and outcome(votes, 7, confirmed=same)["confirmed"] == same
    other = {**same, "digest": "b", "same": False}
    refused = outcome(votes, 7, confirmed=other)
    assert refused["passed"] is False and refused["attempt"] is None and refused["commands"] == []
    assert refused["confirmed"] == other and len(refused["votes"]) == 2  # the record keeps why
    assert outcome(votes, 7, confirmed={**same, "digest": None, "same": False})["passed"] is False  # no state


def test_confirm_model_is_refused_without_the_vote(tmp_path):
    import pytest

    base = {"paths": {"workspace": str(tmp_path), "suite": str(tmp_path), "runs_dir": str(tmp_path / "runs")}}
    EvolveConfig.model_validate({**base, "explore": {"passes": 1, "agree": True, "confirm_model": "local/x"}})
    with pytest.raises(ValueError, match="explore.confirm_model needs explore.agree"):
        EvolveConfig.model_validate({**base, "explore": {"passes": 1, "agree": False, "confirm_model": "local/x"}})


def test_a_cut_or_failed_state_has_no_digest(tmp_path):
    def state(name, **manifest):
        folder = tmp_path / name
        folder.mkdir()
        (folder / MANIFEST).write_text(json.dumps({"roots": [], "digest": "d", **manifest}))
        return folder

    assert state_digest_of(state("whole")) == "d"
    cut = state("cut", roots=[{"path": "/app", "archive": "0.tar", "bytes": 9, "complete": False}])
    assert state_digest_of(cut) is None
    assert state_digest_of(state("failed", error="NotFound: gone")) is None
    assert state_digest_of(tmp_path / "absent") is None
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / MANIFEST).write_text("{not json")
    assert state_digest_of(bad) is None


def _observed(root, task, score, commands, vote=None):
    folder = root / task
    folder.mkdir(parents=True)
    (folder / "instruction.md").write_text(f"Write the answer of {task} to /app/answer.txt.\n")
    (folder / "verdict.json").write_text(json.dumps({"score": score}))
    (folder / "worked.json").write_text(json.dumps({"category": "file-operations", "commands": commands}))
    if vote is not None:
        (folder / AGREED).write_text(json.dumps(vote))


def test_the_distiller_reads_the_vote_in_place_of_the_batch_verdict(tmp_path):
    root = tmp_path / "observations"
    # the judge passed it, the vote did not: left out
    _observed(root, "judged-only", 9, ["echo 1 > /app/answer.txt"], {"passed": False, "attempt": None, "commands": []})
    # the judge failed the batch's, the vote passed an explore attempt: its commands
    _observed(root, "found-hot", 2, ["echo 0 > /app/answer.txt"],
              {"passed": True, "attempt": 2, "commands": ["echo 2 > /app/answer.txt"]})
    # confirmed: the batch's own
    _observed(root, "confirmed", 9, ["echo 3 > /app/answer.txt"],
              {"passed": True, "attempt": 0, "commands": ["echo 3 > /app/answer.txt"]})
    # no vote (explore.agree off): the verdict decides, as before
    _observed(root, "plain", 9, ["echo 4 > /app/answer.txt"])
    found = {p.task: (p.entry.commands, p.explored) for p in passed_attempts(root, 7, NO_FAILURES)}
    assert found == {"found-hot": (["echo 2 > /app/answer.txt"], True),
                     "confirmed": (["echo 3 > /app/answer.txt"], False),
                     "plain": (["echo 4 > /app/answer.txt"], False)}


def test_agree_is_refused_where_it_cannot_vote(tmp_path):
    import pytest

    base = {"paths": {"workspace": str(tmp_path), "suite": str(tmp_path), "runs_dir": str(tmp_path / "runs")}}
    EvolveConfig.model_validate({**base, "explore": {"passes": 1, "agree": True}})
    for extra in ({"trajectory_only": False, "explore": {"passes": 1, "agree": True}},
                  {"explore": {"passes": 0, "agree": True}},
                  {"sandbox": {"kind": "local"}, "explore": {"passes": 1, "agree": True}}):
        with pytest.raises(ValueError, match="explore.agree needs"):
            EvolveConfig.model_validate({**base, **extra})


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_vote_precision_reads_the_tests_only_afterwards_and_counts_wrong_entries(tmp_path):
    """benchmarks/evolution/vote_precision.py on a hand-made run: the judge passed both batch
    attempts (one wrongly); the vote confirmed the right one at attempt 0 and counted the wrong one's
    explore attempt 1, which the tests failed: precision 1/2 per task, one distilled entry wrong."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "evolution"))
    import vote_precision

    cycle = tmp_path / "run" / "cycles" / "001"
    _write(cycle / "observe.json", {"items": [{"task": "a", "verdict": {"score": 9}},
                                              {"task": "b", "verdict": {"score": 8}},
                                              {"task": "c", "verdict": {"score": 2}}]})
    _write(cycle / "explore.json", {"tasks": ["a", "b", "c"], "agreed": {"a": 0, "b": 1, "c": None}, "attempts": [
        {"task": "a", "attempt": 1, "score": 9, "digest": "x"},
        {"task": "b", "attempt": 1, "score": 9, "digest": "y"},
        {"task": "c", "attempt": 1, "score": 3, "digest": "z"}]})
    for task, passed in (("a", True), ("b", False), ("c", False)):
        _write(cycle / "solve" / "results" / f"{task}.json", {"passed": passed})
        _write(cycle / "solve" / "state" / task / "state.json", {"digest": {"a": "x", "b": "y", "c": "q"}[task]})
        _write(cycle / "explore" / "p1" / "results" / f"{task}.json", {"passed": task in ("a", "c")})
    _write(cycle / "evolve" / "distill.json", {"passed": [{"task": "a", "explored": False, "commands": ["echo a"]},
                                                         {"task": "b", "explored": True, "commands": ["echo b"]}]})
    rows_file = tmp_path / "rows.jsonl"
    assert vote_precision.main(["--run", str(tmp_path / "run"), "--out", str(rows_file)]) == 0
    table = vote_precision.summary([json.loads(line) for line in rows_file.read_text().splitlines()])
    judge = table["judge_on_batch"]
    assert (judge["tp"], judge["fp"], judge["fn"], judge["precision"]) == (1, 1, 0, 0.5)
    estimate = table["run_estimate_per_task"]
    assert (estimate["tp"], estimate["fp"], estimate["fn"]) == (1, 1, 1)  # c passed its tests hot; no vote saw it
    assert table["distilled_from_a_failed_attempt"] == ["b"]
    assert vote_precision.main(["--run", str(tmp_path)]) == 2  # not a run directory


def test_vote_precision_tells_which_counts_the_other_model_kept(tmp_path):
    """explore.confirm_model's record read afterwards: the vote counted a (right) and b (wrong, its
    two attempts agreeing on one mistake); the other model left a's files, not b's; the export keeps a
    row per confirmation with that model's own test result, and the summary says 1 of 2 kept, the
    wrong one dropped, and the run's estimate (after the confirmation) counts a only."""
    import hashlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "evolution"))
    import vote_precision

    cycle = tmp_path / "run" / "cycles" / "001"
    model = "local/other"
    folder = cycle / "explore" / "confirm" / hashlib.sha256(model.encode()).hexdigest()[:12]
    _write(cycle / "observe.json", {"items": [{"task": "a", "verdict": {"score": 9}},
                                              {"task": "b", "verdict": {"score": 9}}]})
    _write(cycle / "explore.json", {"tasks": ["a", "b"], "agreed": {"a": 0, "b": None}, "attempts": [
        {"task": "a", "attempt": 1, "score": 9, "digest": "x"}, {"task": "b", "attempt": 1, "score": 9, "digest": "y"}]})
    for task, digest, passed, same in (("a", "x", True, True), ("b", "y", False, False)):
        _write(cycle / "solve" / "results" / f"{task}.json", {"passed": passed})
        _write(cycle / "solve" / "state" / task / "state.json", {"digest": digest})
        _write(cycle / "explore" / "p1" / "results" / f"{task}.json", {"passed": passed})
        _write(cycle / "observations" / task / "agreed.json",
               {"passed": same, "confirmed": {"model": model, "digest": digest if same else "other", "same": same}})
        _write(folder / "results" / f"{task}.json", {"passed": task == "a"})
    rows_file = tmp_path / "rows.jsonl"
    assert vote_precision.main(["--run", str(tmp_path / "run"), "--out", str(rows_file)]) == 0
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    assert [(r["task"], r["same"], r["tests"]) for r in rows if r["kind"] == "confirm"] == [("a", True, True),
                                                                                              ("b", False, False)]
    table = vote_precision.summary(rows)
    assert table["confirm"] == {"model": [model], "vote_counted": 2, "vote_counted_wrong": 1, "kept": 1,
                                "kept_wrong": 0, "dropped_right": 0, "its_attempts_passed_by_tests": 1}
    estimate = table["run_estimate_per_task"]
    assert (estimate["tp"], estimate["fp"]) == (1, 0)


def test_cross_model_probe_counts_a_task_only_where_the_other_model_left_the_same_files(tmp_path):
    """benchmarks/probes/cross_model_probe.py's table on hand-made rows: a (judged, right) and b
    (judged, wrong) where the other model left the same files, c (judged, right) where it did not, d
    whose files are the untouched ones (agrees with nothing), e (failed by the judge, right) where the
    other model agrees: cross counts a and b, cross-only a, b and e; d never."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "probes"))
    import cross_model_probe

    def row(task, score, digest, tests, counted, untouched="u"):
        return {"kind": "attempt", "cycle": 1, "task": task, "attempt": 0, "score": score, "digest": digest,
                "tests": tests, "counted": counted, "untouched": untouched}

    rows = [row("a", 9, "x", True, True), row("b", 9, "y", False, True), row("c", 9, "z", True, False),
            row("d", 9, "u", False, True), row("e", 2, "w", True, False)]
    other = [{"task": "a", "model": "m", "digest": "x", "tests": True},
             {"task": "b", "model": "m", "digest": "y", "tests": False},
             {"task": "c", "model": "m", "digest": "other", "tests": True},
             {"task": "d", "model": "m", "digest": "u", "tests": False},
             {"task": "e", "model": "m", "digest": "w", "tests": True}]
    table = cross_model_probe.summary(rows, other)["estimates"]
    assert (table["judge"]["tp"], table["judge"]["fp"]) == (2, 2)
    assert (table["cross"]["tp"], table["cross"]["fp"], table["cross"]["fn"]) == (1, 1, 2)
    assert (table["cross-only"]["tp"], table["cross-only"]["fp"]) == (2, 1)
    assert table["cross-only"]["wrong"] == ["b"]
    assert (table["vote+cross"]["tp"], table["vote+cross"]["fp"]) == (1, 1)  # d's vote is not confirmed
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cross_model_probe.main(["--rows", str(rows_file), "--out", str(tmp_path), "--run", str(tmp_path)]) == 2


def test_near_noops_do_not_agree(tmp_path):
    """Issue 66: not only an exact no-op. Two attempts that each left a scratch file and never wrote
    what the task names (or, where it names nothing, only added empty files) agree on nothing."""
    import io
    import tarfile

    from adaptive_skill.observe.agreement import near_noop, trivial_change
    from adaptive_skill.sandbox.state import CapturedState, StateRoot, state_digest

    named = ["/app/logs/access.log", "/app/line_count.txt"]
    assert near_noop([("/app/notes.tmp", "added")], named)  # a scratch file beside the asked one
    assert not near_noop([("/app/line_count.txt", "added")], named)  # the asked file, right or wrong
    assert not near_noop([("/app/repo/.git/refs/heads/x", "changed")], ["/app/repo"])  # inside a named dir
    assert near_noop([], named) and near_noop([("/app/out", "added-empty")], [])
    assert not near_noop([("/app/out", "added")], []) and not near_noop([("/app/x", "removed")], [])
    assert not near_noop(None, named)  # unknown: the digest's own rules decide

    def state(name: str, members: dict[str, bytes]):
        folder = tmp_path / name
        folder.mkdir()
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            for member, data in members.items():
                info = tarfile.TarInfo(member)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        (folder / "0.tar").write_bytes(buffer.getvalue())
        manifest = CapturedState(roots=[StateRoot("/app", "0.tar")])
        manifest.digest = state_digest(folder, manifest)
        (folder / MANIFEST).write_text(json.dumps(manifest.to_dict()))
        return folder

    seed = {"app/logs/access.log": b"a\nb\n"}
    untouched = state("untouched", seed)
    text = "Count the lines in `/app/logs/access.log` and write only that number to `/app/line_count.txt`."
    scratch = state("scratch", {**seed, "app/tmp.txt": b"2\n"})
    answered = state("answered", {**seed, "app/line_count.txt": b"2\n"})
    assert trivial_change(scratch, untouched, text) and not trivial_change(answered, untouched, text)
    votes = [Vote(0, 9.0, state_digest_of(scratch), trivial=True), Vote(1, 9.0, state_digest_of(scratch), trivial=True)]
    assert agreed(votes, 7) is None
    assert outcome(votes, 7)["votes"][0]["trivial"] is True
