"""EGL as the seed defines it (new skills / tasks solved x 1000) and the convergence window."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adaptive_skill.engine.phase_converge import converged, egl, tasks_solved


@pytest.mark.parametrize(("new", "solved", "value"), [
    (0, 10, 0.0), (1, 10, 100.0), (2, 4, 500.0), (1, 2000, 0.5),
    (0, 0, 0.0),  # nothing new, nothing solved: no generality lost
    (1, 0, 1000.0), (3, 0, 3000.0),  # skills while solving nothing: the divisor counts as 1
])
def test_egl(new, solved, value):
    assert egl(new, solved) == value


def result(task, passed, mode=None):
    return {"task_id": task, "passed": passed, "failure_mode": None if passed else (mode or "unresolved")}


def item(task, score):
    return {"task": task, "verdict": None if score is None else {"score": score}}


def test_solved_counts_the_verifier_and_the_judge_only_without_tests():
    results = [result("a", True), result("b", False), result("p1", False, "unverified"),
               result("p2", False, "unverified"), result("p3", False, "unverified")]
    judged = [item("a", 2), item("b", 9), item("p1", 8), item("p2", 6), item("p3", None)]
    # a: the verifier passed it (the judge's 2 does not matter); b: the verifier failed it (the judge's
    # 9 does not matter); p1: no tests, judge 8 >= 7; p2: judge 6 < 7; p3: never judged
    assert tasks_solved(results, judged, 7.0) == 2
    assert tasks_solved(results, judged, 6.0) == 3


def test_converged_after_a_window_below_the_threshold():
    assert not converged([0.0, 0.0], 0.05, 3)
    assert converged([100.0, 0.0, 0.0, 0.0], 0.05, 3)
    assert not converged([0.0, 0.0, 100.0], 0.05, 3)
    assert not converged([0.05, 0.0, 0.0], 0.05, 3)  # strictly below


@given(st.integers(0, 20), st.integers(0, 200), st.integers(1, 50))
def test_egl_falls_as_more_is_solved_and_rises_with_new_skills(new, solved, more):
    assert egl(new, solved + more) <= egl(new, solved)
    assert egl(new + 1, solved) > egl(new, solved)
    assert (egl(new, solved) > 0) == (new > 0)  # positive exactly when a new skill came
