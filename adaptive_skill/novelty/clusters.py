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
    def __init__(self, similarity: float = 0.5):
        self.similarity = similarity
        self._sums: list[np.ndarray] = []
        self.sizes: list[int] = []

    @property
    def count(self) -> int:
        return len(self.sizes)

    def assign(self, vector: np.ndarray) -> Assignment:
        unit = np.asarray(vector, dtype=np.float64).reshape(-1)
        norm = np.linalg.norm(unit)
        unit = unit / norm if norm > 0 else unit
        if self._sums:
            centres = np.stack(self._sums)
            norms = np.linalg.norm(centres, axis=1)
            similarities = (centres @ unit) / np.where(norms == 0, 1.0, norms)
            best = int(np.argmax(similarities))
            if similarities[best] >= self.similarity:
                self._sums[best] = self._sums[best] + unit
                self.sizes[best] += 1
                return Assignment(best, False, float(similarities[best]))
        self._sums.append(unit.copy())
        self.sizes.append(1)
        return Assignment(len(self.sizes) - 1, True, 1.0)
