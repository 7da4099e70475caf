"""Novelty metrics, online clusters, the elite archive and the stop rules, on vectors worked out by hand."""

import math

import numpy as np
import pytest

from adaptive_skill.config import NoveltyConfig
from adaptive_skill.novelty.archive import EliteArchive
from adaptive_skill.novelty.clusters import OnlineClusters
from adaptive_skill.novelty.metrics import NoveltyTracker
from adaptive_skill.novelty.strategies import Breakthrough, Coverage, Exhaust, stop_rule

E1, E2, E3 = np.eye(3, dtype=np.float32)
HALF = 1 - 1 / math.sqrt(2)  # distance of e1 from e1+e2 and of (e1+e2) from e1: 0.2929


def approx(value, abs=1e-6):  # embeddings are float32: six places, not pytest's relative 1e-6
    return pytest.approx(value, abs=abs)


def test_scores_on_unit_vectors():
    tracker = NoveltyTracker(jump_threshold=0.3, duplicate_distance=0.1)
    first = tracker.observe(E1)
    assert (first.score, first.nearest_distance, first.step_distance, first.is_jump) == (0.0, None, None, False)

    second = tracker.observe(E2)  # centroid e1: orthogonal
    assert second.score == approx(1.0)
    assert (second.nearest_distance, second.nearest_index) == (approx(1.0), 0)
    assert second.step_distance == approx(1.0) and second.is_jump and not second.is_duplicate

    third = tracker.observe(E1)  # centroid (e1+e2)/2; e1 itself was seen
    assert third.score == approx(HALF)
    assert (third.nearest_distance, third.nearest_index) == (approx(0.0), 0)
    assert third.is_duplicate and third.is_jump  # a repeat of #0, but a jump from #1

    fourth = tracker.observe(3 * (E1 + E2))  # scale does not matter; centroid 2e1+e2
    assert fourth.score == approx(1 - 3 / math.sqrt(10))
    assert (fourth.nearest_distance, fourth.nearest_index) == (approx(HALF), 0)
    assert fourth.step_distance == approx(HALF) and not fourth.is_jump  # 0.29 < 0.3


def test_summary_is_running():
    tracker = NoveltyTracker(jump_threshold=0.3, duplicate_distance=0.1)
    for vector in (E1, E2, E1, E1 + E2):
        tracker.observe(vector)
    summary = tracker.summary
    expected = [0.0, 1.0, HALF, 1 - 3 / math.sqrt(10)]
    assert summary.scores == approx(expected)
    assert summary.count == 4 and summary.cumulative == approx(sum(expected))
    assert summary.mean == approx(sum(expected) / 4)
    assert (summary.max_score, summary.max_index) == (approx(1.0), 1)
    assert (summary.jumps, summary.transitions, summary.duplicates) == (2, 3, 1)
    assert summary.jump_ratio == approx(2 / 3)
    data = summary.to_dict()
    assert data["count"] == 4 and data["jumps"] == 2 and len(data["scores"]) == 4


def test_references_join_the_centroid_but_are_never_the_nearest():
    tracker = NoveltyTracker()
    tracker.add_reference(E1)
    score = tracker.observe(E1)
    assert score.score == approx(0.0) and score.step_distance == approx(0.0)
    assert score.nearest_distance is None and not score.is_duplicate  # the seed is not a task
    assert tracker.count == 1 and tracker.summary.count == 1


def test_opposite_vectors_and_a_cancelled_centroid():
    tracker = NoveltyTracker()
    tracker.add_reference(E1)
    assert tracker.observe(-E1).score == approx(2.0)
    assert tracker.observe(E2).score == approx(1.0)  # e1 + (-e1) = 0: no direction left


def test_score_does_not_add_and_dimensions_must_match():
    tracker = NoveltyTracker()
    tracker.observe(E1)
    assert tracker.score(E2).score == approx(1.0)
    assert tracker.count == 1 and tracker.summary.count == 1
    with pytest.raises(ValueError, match="2 dimensions, the history 3"):
        tracker.observe(np.ones(2))


def test_incremental_scores_equal_a_recomputation_over_the_history():
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(150, 32)).astype(np.float32)
    tracker = NoveltyTracker(capacity=4)  # grows several times on the way
    units = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for i, vector in enumerate(vectors):
        score = tracker.observe(vector)
        if i == 0:
            continue
        centroid = units[:i].mean(axis=0)
        assert score.score == approx(1 - units[i] @ centroid / np.linalg.norm(centroid), abs=1e-5)
        similarities = units[:i] @ units[i]
        assert score.nearest_index == int(np.argmax(similarities))
        assert score.nearest_distance == approx(1 - similarities.max(), abs=1e-5)
        assert score.step_distance == approx(1 - units[i - 1] @ units[i], abs=1e-5)


def test_online_clusters_join_or_found():
    clusters = OnlineClusters(similarity=0.5)
    a = clusters.assign(E1)
    b = clusters.assign(np.array([0.9, 0.1, 0.0]))
    c = clusters.assign(E2)
    d = clusters.assign(E3)
    e = clusters.assign(np.array([0.0, 0.8, 0.2]))
    assert [(x.cluster, x.new) for x in (a, b, c, d, e)] == [(0, True), (0, False), (1, True), (2, True), (1, False)]
    assert b.similarity == approx(0.9 / math.hypot(0.9, 0.1))
    assert clusters.sizes == [2, 2, 1] and clusters.count == 3


def test_cluster_centres_move_with_their_members():
    clusters = OnlineClusters(similarity=0.6)
    clusters.assign(E1)
    clusters.assign(E1 + E2)  # cos 0.707: joins, the centre turns towards e2
    # cos(e2, e1) = 0 would found a new cluster; against the moved centre it is 0.38, still below 0.6
    assert clusters.assign(E2).new
    assert clusters.assign(E1 + 0.9 * E2).cluster == 0


def test_archive_keeps_the_best_per_cell():
    archive = EliteArchive(["git", "build"], ["easy", "hard"])
    assert archive.offer("git", "easy", 0.3, "a") == "new"
    assert archive.offer("git", "easy", 0.3, "b") == "kept"  # a tie keeps the incumbent
    assert archive.offer("git", "easy", 0.5, "c") == "replaced"
    assert archive.offer("git", "easy", 0.1, "d") == "kept"
    assert archive.offer("build", "hard", 0.2, "e") == "new"
    assert archive.cells[("git", "easy")].item == "c" and archive.coverage == 0.5
    assert archive.open_cells() == [("git", "hard"), ("build", "easy")]
    with pytest.raises(ValueError, match="no cell"):
        archive.offer("networking", "easy", 1.0, "x")
    data = archive.to_dict(str.upper)
    assert data["coverage"] == 0.5
    assert [(c["row"], c["column"], c["item"]) for c in data["cells"]] == [("build", "hard", "E"), ("git", "easy", "C")]


def test_breakthrough_rule():
    rule = Breakthrough(0.4)
    assert rule.check([], 0) is None and rule.check([0.9, 0.39], 2) is None
    assert "0.400 reached the threshold 0.4" in rule.check([0.1, 0.4], 2)


def test_exhaust_rule_needs_a_full_window():
    rule = Exhaust(0.15, 3)
    assert rule.check([0.01, 0.01], 2) is None  # two scores are not a trend yet
    assert rule.check([0.5, 0.1, 0.1], 3) is None  # mean 0.233
    reason = rule.check([0.5, 0.1, 0.1, 0.1], 3)
    assert "last 3 tasks 0.100 fell below 0.15" in reason


def test_coverage_rule():
    rule = Coverage(3)
    assert rule.check([0.0] * 10, 2) is None
    assert rule.check([0.0] * 3, 3) == "3 distinct clusters covered (target 3)"


def test_stop_rule_follows_the_config():
    assert stop_rule(NoveltyConfig()) == Breakthrough(0.4)
    assert stop_rule(NoveltyConfig(strategy="exhaust", exhaust_threshold=0.2, exhaust_window=4)) == Exhaust(0.2, 4)
    assert stop_rule(NoveltyConfig(strategy="coverage", clusters=7)) == Coverage(7)
