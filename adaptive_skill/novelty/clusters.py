"""Online clustering for the coverage strategy: one pass, no cluster count given in advance.

Each item joins the cluster whose centre is most similar to it when that cosine reaches
`similarity`, and founds a new cluster otherwise (the "leader" scheme). A centre is the running
sum of its members, so joining is O(d) and assigning O(k*d) for k clusters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Assignment:
    cluster: int
    new: bool
    similarity: float  # cosine to the centre it joined (1.0 for a founder)


class OnlineClusters:
    def __init__(self, similarity: float = 0.5, capacity: int = 16):
        self.similarity = similarity
        self.sizes: list[int] = []
        self._capacity = capacity
        self._sums: np.ndarray | None = None  # one row per cluster, grown by doubling
        self._norms = np.zeros(0)

    @property
    def count(self) -> int:
        return len(self.sizes)

    def assign(self, vector: np.ndarray) -> Assignment:
        unit = np.asarray(vector, dtype=np.float64).reshape(-1)
        norm = np.linalg.norm(unit)
        unit = unit / norm if norm > 0 else unit
        k = self.count
        if k:
            similarities = (self._sums[:k] @ unit) / np.where(self._norms[:k] == 0, 1.0, self._norms[:k])
            best = int(np.argmax(similarities))
            if similarities[best] >= self.similarity:
                self._sums[best] += unit
                self._norms[best] = np.linalg.norm(self._sums[best])
                self.sizes[best] += 1
                return Assignment(best, False, float(similarities[best]))
        self._grow(unit.shape[0])
        self._sums[k], self._norms[k] = unit, np.linalg.norm(unit)
        self.sizes.append(1)
        return Assignment(k, True, 1.0)

    def _grow(self, dim: int) -> None:
        if self._sums is None:
            self._sums, self._norms = np.zeros((self._capacity, dim)), np.zeros(self._capacity)
        elif self.count == len(self._sums):
            self._sums = np.concatenate([self._sums, np.zeros_like(self._sums)])
            self._norms = np.concatenate([self._norms, np.zeros_like(self._norms)])
