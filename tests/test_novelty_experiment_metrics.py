"""The experiment's measures on known inputs: flexibility, jumps, diversity, clustering, PCA and
the seeded bootstrap intervals."""

import numpy as np
import pytest

from adaptive_skill.novelty.experiments.conditions import CONDITIONS, parse_conditions, sampler_for
from adaptive_skill.novelty.experiments.metrics import (
    cluster_labels,
    flexibility,
    jumps,
    mean_pairwise_distance,
    pca_2d,
)
from adaptive_skill.novelty.experiments.stats import bootstrap_difference, bootstrap_mean

E1, E2, E3 = np.eye(3)


@pytest.mark.parametrize("sequence, switches", [
    ([], 0), (["a"], 0), (["a", "a", "a"], 0), ([0, 0, 1, 1, 0], 2), (["a", "b", "a", "b"], 3),
])
def test_flexibility_counts_category_switches(sequence, switches):
    assert flexibility(sequence) == switches


def test_jumps_are_steps_over_the_threshold_with_1_based_positions():
    result = jumps([None, 0.1, 0.5, 0.31, 0.3], threshold=0.3)
    assert result.positions == [3, 4]  # 0.3 itself is not over the threshold
    assert result.ratio == pytest.approx(2 / 4)  # the first item had no predecessor
    assert jumps([], 0.3).ratio == 0.0 and jumps([None], 0.3).positions == []
    assert jumps([0.9, 0.9], 0.3).to_dict() == {"positions": [1, 2], "ratio": 1.0}


def test_mean_pairwise_distance():
    assert mean_pairwise_distance(np.array([E1, E2])) == pytest.approx(1.0)
    assert mean_pairwise_distance(np.array([E1, E1, E2])) == pytest.approx(2 / 3)
    assert mean_pairwise_distance(np.array([E1, -E1])) == pytest.approx(2.0)
    assert mean_pairwise_distance(np.array([E1, 3 * E1])) == 0.0  # length does not matter
    assert mean_pairwise_distance(np.array([E1])) == 0.0


def test_cluster_labels_follow_the_one_pass_clustering():
    assert cluster_labels(np.array([E1, E1, E2, E1, E3, E2]), 0.5) == [0, 0, 1, 0, 2, 1]


def test_pca_projects_a_line_onto_its_first_component():
    points = np.array([[0.0, 0, 0], [1, 1, 0], [2, 2, 0], [3, 3, 0]])
    projected = pca_2d(points)
    assert projected.shape == (4, 2)
    assert np.allclose(projected[:, 1], 0.0)
    assert np.allclose(np.abs(np.diff(projected[:, 0])), np.sqrt(2))  # distances along the line are kept
    assert np.allclose(pca_2d(np.array([E1])), 0.0)


def test_bootstrap_mean_is_seeded_and_brackets_the_mean():
    first, again = bootstrap_mean([1, 2, 3, 4], seed=7), bootstrap_mean([1, 2, 3, 4], seed=7)
    assert first == again and first.mean == 2.5 and first.n == 4
    assert 1.0 <= first.low < 2.5 < first.high <= 4.0
    # pinned: numpy's PCG64 stream is stable, so these only move if the method changes
    assert (first.low, first.high) == pytest.approx((1.5, 3.5))
    constant = bootstrap_mean([0.3] * 5)
    assert (constant.mean, constant.low, constant.high) == pytest.approx((0.3, 0.3, 0.3))
    assert bootstrap_mean([]).to_dict() == {"mean": None, "low": None, "high": None, "n": 0}


def test_bootstrap_difference_excludes_zero_only_for_separated_groups():
    separated = bootstrap_difference([0.9, 1.0, 0.95, 0.92], [0.1, 0.2, 0.15, 0.12], seed=1)
    assert separated.mean == pytest.approx(0.8) and separated.excludes_zero and separated.low > 0.7
    same = bootstrap_difference([0.1, 0.5, 0.3, 0.9], [0.9, 0.3, 0.5, 0.1], seed=1)
    assert same.mean == 0.0 and not same.excludes_zero
    assert not bootstrap_difference([0.0, 0.0], [0.0, 0.0]).excludes_zero  # a point at 0 excludes nothing
    assert bootstrap_difference([1.0], []).mean is None


def test_conditions_parse_in_canonical_order_and_sample_their_kind():
    assert parse_conditions("full-pipeline, direct") == ["direct", "full-pipeline"]
    with pytest.raises(ValueError, match="unknown condition telepathy"):
        parse_conditions("direct,telepathy")
    kinds = {c: {sampler_for(c, "en", 1).sample().kind} for c in CONDITIONS if c != "random-perspective"}
    assert kinds == {"direct": {"none"}, "expert-only": {"expert"}, "attribute-only": {"domain"},
                     "full-pipeline": {"hybrid"}}
    sampler = sampler_for("random-perspective", "en", 1)
    random_kinds = {sampler.sample().kind for _ in range(60)}
    assert random_kinds == {"expert", "domain", "hybrid"}
