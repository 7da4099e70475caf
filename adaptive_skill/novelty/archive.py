"""A MAP-Elites-style archive: a grid of behaviour cells, each keeping its best item.

Here a cell is (category, difficulty) of a proposed task and quality is its novelty score, so the
archive ends up holding the most novel task of every kind the loop reached, and its empty cells
say which kinds are still missing (the prompt can point the model at them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

Item = TypeVar("Item")
Outcome = Literal["new", "replaced", "kept"]


@dataclass(frozen=True)
class Elite(Generic[Item]):
    item: Item
    quality: float


class EliteArchive(Generic[Item]):
    def __init__(self, rows: Sequence[str], columns: Sequence[str]):
        if not rows or not columns:
            raise ValueError("an archive needs at least one row and one column")
        self.rows, self.columns = list(rows), list(columns)
        self.cells: dict[tuple[str, str], Elite[Item]] = {}

    @property
    def size(self) -> int:
        return len(self.rows) * len(self.columns)

    @property
    def coverage(self) -> float:
        return len(self.cells) / self.size

    def offer(self, row: str, column: str, quality: float, item: Item) -> Outcome:
        """Keep `item` if its cell is empty or it beats the cell's elite (ties keep the incumbent)."""
        if row not in self.rows or column not in self.columns:
            raise ValueError(f"no cell ({row}, {column}) in this archive")
        current = self.cells.get((row, column))
        if current is not None and quality <= current.quality:
            return "kept"
        self.cells[(row, column)] = Elite(item, quality)
        return "new" if current is None else "replaced"

    def open_cells(self) -> list[tuple[str, str]]:
        return [(r, c) for r in self.rows for c in self.columns if (r, c) not in self.cells]

    def to_dict(self, item_to_dict: Any = lambda item: item) -> dict[str, Any]:
        return {"rows": self.rows, "columns": self.columns, "coverage": round(self.coverage, 6),
                "cells": [{"row": r, "column": c, "quality": round(e.quality, 6), "item": item_to_dict(e.item)}
                          for (r, c), e in sorted(self.cells.items())]}
