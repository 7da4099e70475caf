"""What every embedder shares: its error and the row normalisation (a dot product of two rows is
their cosine). The embedders import it from here; the package re-exports both."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


class EmbedderError(Exception):
    """An embedding call failed (model unreachable, bad reply). Callers decide whether to go on."""


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
