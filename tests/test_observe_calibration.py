"""Calibration metrics on inputs small enough to check by hand."""

import pytest

from adaptive_skill.observe import JudgeFailure, Verdict, auroc, calibrate, calibrate_results
from adaptive_skill.observe.calibration import confusion


@pytest.mark.parametrize("scores, labels, expected", [
    ([0.1, 0.4, 0.35, 0.8], [False, False, True, True], 0.75),  # 3 of 4 (pos, neg) pairs ordered right
    ([1, 2, 2, 3], [False, True, False, True], 0.875),  # (2, 2) is a tie: half a pair -> 3.5 / 4
    ([5, 5, 5, 5], [True, False, True, False], 0.5),  # all tied: no information
    ([1, 2, 8, 9], [False, False, True, True], 1.0),
    ([8, 9, 1, 2], [False, False, True, True], 0.0),
    ([7, 7, 3], [True, False, False], 0.75),  # pos 7 vs neg 7 (tie, 0.5) and 3 (1) -> 1.5 / 2
])
def test_auroc_known_values(scores, labels, expected):
    assert auroc(scores, labels) == pytest.approx(expected)


def test_auroc_needs_both_classes():
    assert auroc([1, 2], [True, True]) is None and auroc([], []) is None


def test_calibrate_by_hand():
    # score, passed, category.  At threshold 7 the judge predicts pass for 9, 8 and 7.
    pairs = [(9, True, "git"), (8, False, "git"), (3, False, "git"),
             (7, True, "build"), (2, False, "build"), (6, True, "build")]
    report = calibrate(pairs, 7.0)
    assert report == {
        "threshold": 7.0, "n": 6,
        "accuracy": 0.6667,  # right: 9 (tp), 3 (tn), 7 (tp), 2 (tn); wrong: 8 (fp), 6 (fn)
        "precision": 0.6667, "recall": 0.6667,
        "auroc": 0.7778,  # positives 9, 7, 6 against negatives 8, 3, 2: 3 + 2 + 2 = 7 of 9 pairs
        "base_rate": 0.5, "predicted_pass_rate": 0.5,
        "confusion": {"tp": 2, "fp": 1, "tn": 2, "fn": 1},
        "per_category": {
            "build": {"n": 3, "accuracy": 0.6667, "precision": 1.0, "recall": 0.5, "auroc": 1.0,
                      "base_rate": 0.6667, "predicted_pass_rate": 0.3333,
                      "confusion": {"tp": 1, "fp": 0, "tn": 1, "fn": 1}},
            "git": {"n": 3, "accuracy": 0.6667, "precision": 0.5, "recall": 1.0, "auroc": 1.0,
                    "base_rate": 0.3333, "predicted_pass_rate": 0.6667,
                    "confusion": {"tp": 1, "fp": 1, "tn": 1, "fn": 0}},
        },
    }


def test_threshold_is_inclusive_and_empty_input_is_all_none():
    assert confusion([7.0, 6.99], [True, True], 7.0) == {"tp": 1, "fp": 0, "tn": 0, "fn": 1}
    empty = calibrate([], 7.0)
    assert empty["n"] == 0 and empty["accuracy"] is None and empty["auroc"] is None and empty["per_category"] == {}


def test_calibrate_results_joins_by_task_and_lists_what_was_not_compared():
    results = [Verdict(9, "git", "ok", None, task_id="a"), Verdict(2, "git", "bad", "x", task_id="b"),
               JudgeFailure("timeout", task_id="c"),
               {"task_id": "d", "status": "ok", "score": 8, "category": "build"},  # as stored in a cycle
               Verdict(5, "build", "meh", "y", task_id="z")]  # judged, but the verifier never ran
    labels = {"a": True, "b": False, "c": True, "d": False, "e": True}
    report = calibrate_results(labels, results, 7.0)
    assert report["n"] == 3 and report["confusion"] == {"tp": 1, "fp": 1, "tn": 1, "fn": 0}
    assert report["auroc"] == 1.0  # the one passed task (9) outscores both failed ones (2, 8)
    assert (report["judge_errors"], report["unlabelled"], report["unjudged"]) == (["c"], ["z"], ["e"])
    assert set(report["per_category"]) == {"git", "build"}
