"""Embedding models behind litellm: Ollama (`ollama/qwen3-embedding`), OpenAI
(`text-embedding-3-small`), and whatever else litellm serves. litellm is imported on first use."""

from __future__ import annotations

import numpy as np

from adaptive_skill.embed.vectors import EmbedderError, normalize_rows


class LiteLLMEmbedder:
    paraphrase_similarity = 0.8

    def __init__(self, model: str, api_base: str | None = None, api_key: str | None = None,
                 timeout_sec: float = 60.0, batch_size: int = 64):
        self.name = model
        self.model = model
        self.api_base, self.api_key = api_base, api_key
        self.timeout_sec = timeout_sec
        self.batch_size = batch_size

    def embed(self, texts: list[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            rows.extend(self._call([t or " " for t in texts[start:start + self.batch_size]]))
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return normalize_rows(np.array(rows, dtype=np.float32))

    def _call(self, batch: list[str]) -> list[list[float]]:
        from adaptive_skill.llm._litellm import import_litellm

        litellm = import_litellm()
        extra = {k: v for k, v in (("api_base", self.api_base), ("api_key", self.api_key)) if v}
        try:
            response = litellm.embedding(model=self.model, input=batch, timeout=self.timeout_sec, **extra)
        except Exception as exc:  # litellm raises many types; one line is what the caller needs
            raise EmbedderError(f"{self.model}: embedding failed: {type(exc).__name__}: "
                                f"{str(exc).splitlines()[0] if str(exc) else ''}") from exc
        data = sorted(response.data, key=lambda item: item["index"])
        if len(data) != len(batch):
            raise EmbedderError(f"{self.model}: asked for {len(batch)} embeddings, got {len(data)}")
        return [item["embedding"] for item in data]
