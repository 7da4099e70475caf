"""The per-sequence measures of the experiment, as pure functions of known inputs.

Flexibility is the count of category switches along a sequence (how often the next idea belongs
to another category than the last one), as in the flexibility score of the Alternative Uses
Test. A jump is a step (distance to the item before) above a threshold; positions are 1-based.
Distances are cosine distances, as everywhere in adaptive_skill.novelty.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from adaptive_skill.novelty.clusters import OnlineClusters


def flexibility(categories: Sequence[Hashable]) -> int:
    return sum(a != b for a, b in zip(categories, categories[1:], strict=False))


@dataclass(frozen=True)
class Jumps:
    positions: list[int]  # 1-based positions in the sequence whose step was a jump
    ratio: float  # jumps / steps that had a predecessor

    def to_dict(self) -> dict[str, object]:
        return {"positions": self.positions, "ratio": round(self.ratio, 6)}


def jumps(steps: Sequence[float | None], threshold: float) -> Jumps:
    """`steps[i]` is the distance of item i+1 to the one before it (None: nothing before)."""
    positions = [i for i, step in enumerate(steps, 1) if step is not None and step > threshold]
    counted = sum(step is not None for step in steps)
    return Jumps(positions, len(positions) / counted if counted else 0.0)


def mean_pairwise_distance(vectors: np.ndarray) -> float:
    """Mean cosine distance over all unordered pairs; 0 with fewer than two items."""
    units = _units(vectors)
    n = len(units)
    if n < 2:
        return 0.0
    similarities = units @ units.T
    upper = similarities[np.triu_indices(n, k=1)]
    return max(0.0, float(np.mean(1.0 - upper)))  # identical texts: rounding may dip below 0


def cluster_labels(vectors: np.ndarray, similarity: float) -> list[int]:
    """One-pass cluster labels in order (the coverage strategy's clustering)."""
    clusters = OnlineClusters(similarity)
    return [clusters.assign(vector).cluster for vector in np.asarray(vectors)]


def pca_2d(vectors: np.ndarray) -> np.ndarray:
    """The rows projected on their first two principal components (SVD of the centred matrix);
    columns beyond the rank are zero."""
    matrix = np.asarray(vectors, dtype=np.float64)
    out = np.zeros((len(matrix), 2))
    if len(matrix) < 2:
        return out
    centred = matrix - matrix.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    components = vt[:2]
    out[:, :len(components)] = centred @ components.T
    return out


def _units(vectors: np.ndarray) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float64).reshape(len(vectors), -1) if len(vectors) else np.zeros((0, 1))
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
