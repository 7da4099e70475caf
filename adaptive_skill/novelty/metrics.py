"""Novelty of each new embedding against everything seen before, updated incrementally.

Distances are cosine distances, 1 - cos: 0 for the same direction, about 1 for unrelated texts,
up to 2 for opposite ones. Per new item the tracker does O(d) work for the primary score (distance
to the running centroid), the step to the previous item (jumps) and the running summary; the
nearest previous item takes one matrix-vector product over the stored rows (O(n*d), exact, no
pairwise recomputation). An item with nothing before it scores 0: novelty is relative.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class NoveltyScore:
    centroid_distance: float  # the primary score: 1 - cos(item, mean of everything before it)
    nearest_distance: float | None  # to the closest earlier item (references excluded); None for the first
    nearest_index: int | None  # which earlier item (0-based, in observation order)
    step_distance: float | None  # to the item (or reference) just before
    is_jump: bool  # step_distance above the jump threshold
    is_duplicate: bool  # nearest_distance within the duplicate distance

    @property
    def score(self) -> float:
        return self.centroid_distance

    def to_dict(self) -> dict[str, object]:
        return {"score": round(self.centroid_distance, 6),
                "nearest_distance": None if self.nearest_distance is None else round(self.nearest_distance, 6),
                "nearest_index": self.nearest_index,
                "step_distance": None if self.step_distance is None else round(self.step_distance, 6),
                "is_jump": self.is_jump, "is_duplicate": self.is_duplicate}


@dataclass
class TrajectorySummary:
    """Running statistics of the scores: appending one score is O(1)."""

    scores: list[float] = field(default_factory=list)
    cumulative: float = 0.0  # sum of the scores: how much novelty the run found in total
    max_score: float = 0.0
    max_index: int | None = None
    jumps: int = 0
    transitions: int = 0  # items that had a predecessor, the denominator of the jump ratio
    duplicates: int = 0

    def add(self, score: NoveltyScore) -> None:
        if self.max_index is None or score.score > self.max_score:
            self.max_score, self.max_index = score.score, len(self.scores)
        self.scores.append(score.score)
        self.cumulative += score.score
        self.transitions += score.step_distance is not None
        self.jumps += score.is_jump
        self.duplicates += score.is_duplicate

    @property
    def count(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return self.cumulative / len(self.scores) if self.scores else 0.0

    @property
    def jump_ratio(self) -> float:
        return self.jumps / self.transitions if self.transitions else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"count": self.count, "mean": round(self.mean, 6), "max": round(self.max_score, 6),
                "max_index": self.max_index, "cumulative": round(self.cumulative, 6), "jumps": self.jumps,
                "jump_ratio": round(self.jump_ratio, 6), "duplicates": self.duplicates,
                "scores": [round(s, 6) for s in self.scores]}


class NoveltyTracker:
    """Scores each observed vector against the history, then adds it to the history.

    References (the seed problem, say) join the centroid and count as the previous item, but are
    neither scored nor candidates for the nearest item: a task is not a duplicate of its seed.
    """

    def __init__(self, jump_threshold: float = 0.3, duplicate_distance: float = 0.1, capacity: int = 64):
        self.jump_threshold = jump_threshold
        self.duplicate_distance = duplicate_distance
        self.summary = TrajectorySummary()
        self._capacity = capacity
        self._sum: np.ndarray | None = None  # running sum of unit vectors: the centroid's direction
        self._rows: np.ndarray | None = None  # observed items, grown by doubling
        self._count = 0
        self._previous: np.ndarray | None = None

    @property
    def count(self) -> int:
        """Observed items (references not included)."""
        return self._count

    def add_reference(self, vector: np.ndarray) -> None:
        unit = self._unit(vector)
        self._accumulate(unit)
        self._previous = unit

    def score(self, vector: np.ndarray) -> NoveltyScore:
        """The novelty of `vector` against the history, without adding it."""
        return self._score(self._unit(vector))

    def observe(self, vector: np.ndarray) -> NoveltyScore:
        """Score `vector`, then add it to the history and the summary."""
        unit = self._unit(vector)
        result = self._score(unit)
        self._accumulate(unit)
        self._store(unit)
        self._previous = unit
        self.summary.add(result)
        return result

    def _score(self, unit: np.ndarray) -> NoveltyScore:
        if self._sum is None:
            return NoveltyScore(0.0, None, None, None, False, False)
        norm = float(np.linalg.norm(self._sum))
        # Opposite items can cancel to a zero sum: no direction left, so nothing is shared with it.
        centroid = 1.0 - (float(unit @ self._sum) / norm if norm > 0 else 0.0)
        nearest = index = None
        if self._count:
            similarities = self._rows[:self._count] @ unit
            index = int(np.argmax(similarities))
            nearest = 1.0 - float(similarities[index])
        step = None if self._previous is None else 1.0 - float(unit @ self._previous)
        return NoveltyScore(
            centroid_distance=centroid, nearest_distance=nearest, nearest_index=index, step_distance=step,
            is_jump=step is not None and step > self.jump_threshold,
            is_duplicate=nearest is not None and nearest <= self.duplicate_distance)

    def _accumulate(self, unit: np.ndarray) -> None:
        self._sum = unit.astype(np.float64) if self._sum is None else self._sum + unit

    def _store(self, unit: np.ndarray) -> None:
        if self._rows is None:
            self._rows = np.empty((self._capacity, unit.shape[0]), dtype=np.float32)
        elif self._count == len(self._rows):
            self._rows = np.concatenate([self._rows, np.empty_like(self._rows)])
        self._rows[self._count] = unit
        self._count += 1

    def _unit(self, vector: np.ndarray) -> np.ndarray:
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if self._sum is not None and vector.shape[0] != self._sum.shape[0]:
            raise ValueError(f"embedding has {vector.shape[0]} dimensions, the history {self._sum.shape[0]}")
        norm = float(np.linalg.norm(vector))
        # Embedders already return unit rows; normalising again keeps hand-made vectors honest.
        return vector / norm if norm > 0 else vector
