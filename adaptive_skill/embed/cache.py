"""An embedding cache keyed by a hash of the text: the monitor and the novelty work embed the
same strings (the instruction, repeated commands) again and again."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np

from adaptive_skill.protocols import Embedder


class CachedEmbedder:
    def __init__(self, inner: Embedder, max_entries: int = 4096):
        self.inner = inner
        self.name = inner.name
        self.paraphrase_similarity = inner.paraphrase_similarity
        self.surface_form = getattr(inner, "surface_form", False)
        self.max_entries = max_entries
        self._rows: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self.hits = self.misses = 0
        self._lock = threading.Lock()  # attempts run in worker threads and share one cache

    def embed(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return self._embed(texts)

    def _embed(self, texts: list[str]) -> np.ndarray:
        keys = [hashlib.blake2b(t.encode("utf-8", "surrogatepass"), digest_size=16).digest() for t in texts]
        missing: dict[bytes, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key in self._rows:
                self._rows.move_to_end(key)
            else:
                missing.setdefault(key, text)
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        if missing:
            fresh = self.inner.embed(list(missing.values()))
            for key, row in zip(missing, fresh, strict=True):
                self._rows[key] = row
        rows = [self._rows[key] for key in keys]
        while len(self._rows) > self.max_entries:  # evict after reading, so this batch is complete
            self._rows.popitem(last=False)
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack(rows)
