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


def test_no_digest_never_agrees():
    assert agreed([Vote(0, 9.0, None), Vote(1, 9.0, None)], 7) is None  # two uncaptured states are not the same
    assert agreed([Vote(0, 9.0, ""), Vote(1, 9.0, "")], 7) is None
    assert agreed([Vote(0, None, "a"), Vote(1, None, "a")], 7) is None  # no verdict


def test_outcome_keeps_every_vote_and_the_counted_commands():
    votes = [Vote(0, 9.0, "a", ["echo 1 > f"]), Vote(1, 9.0, "a", ["echo 1 > f; true"])]
    assert outcome(votes, 7) == {"passed": True, "attempt": 0, "commands": ["echo 1 > f"], "votes": [
        {"attempt": 0, "score": 9.0, "digest": "a"}, {"attempt": 1, "score": 9.0, "digest": "a"}]}
    assert outcome(votes[:1], 7)["passed"] is False


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
