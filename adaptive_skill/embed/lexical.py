"""A dependency-free embedder: hashed character 3-5-grams and word 1-2-grams, numpy only.

It sees surface form, not meaning: "I need more information" and "I still need more details"
land close, a paraphrase with other words does not. Cheap (well under a millisecond per text of
a few KB) and deterministic across processes, which is what the monitor's per-step budget needs.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from adaptive_skill.embed.vectors import normalize_rows

_WORD = re.compile(r"[a-z0-9_]+")
_SPACE = re.compile(r"\s+")
_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
_MULT = np.uint64(0x100000001B3)  # FNV-1a prime: spreads each character over the hash


def _mix(h: np.ndarray) -> np.ndarray:
    """murmur3's finaliser: without it the low bits (the bucket) depend on few characters."""
    h = h ^ (h >> np.uint64(33))
    h = (h * np.uint64(0xFF51AFD7ED558CCD)) & _MASK
    h = h ^ (h >> np.uint64(33))
    h = (h * np.uint64(0xC4CEB9FE1A85EC53)) & _MASK
    return h ^ (h >> np.uint64(33))


class LexicalEmbedder:
    paraphrase_similarity = 0.6  # measured: rewordings 0.57-0.86, unrelated sentences below 0.15
    surface_form = True  # words, not meaning: agent/inline.py ranks skills by words with it

    def __init__(self, dimensions: int = 512, char_ngrams: tuple[int, ...] = (3, 4, 5),
                 word_weight: float = 2.0, max_chars: int = 4000):
        self.name = f"lexical-{dimensions}"
        self.dimensions = dimensions
        self.char_ngrams = char_ngrams
        self.word_weight = word_weight
        self.max_chars = max_chars  # long outputs: head and tail carry what matters

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return normalize_rows(np.stack([self._vector(t) for t in texts]))

    def _vector(self, text: str) -> np.ndarray:
        text = _SPACE.sub(" ", text.lower()).strip()
        if len(text) > self.max_chars:
            half = self.max_chars // 2
            text = f"{text[:half]} {text[-half:]}"
        vector = np.zeros(self.dimensions, dtype=np.float64)
        if not text:
            return vector
        codes = np.frombuffer(f" {text} ".encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        with np.errstate(over="ignore"):
            for n in self.char_ngrams:
                if len(codes) < n:
                    continue
                count = len(codes) - n + 1
                h = np.full(count, np.uint64(n), dtype=np.uint64)
                for j in range(n):
                    h = (h * _MULT) ^ codes[j:j + count]
                self._add(vector, _mix(h), 1.0)
            words = _WORD.findall(text)
            if words:
                ids = np.array([zlib.crc32(w.encode()) for w in words], dtype=np.uint64)
                self._add(vector, _mix(ids), self.word_weight)
                if len(ids) > 1:
                    self._add(vector, _mix((ids[:-1] << np.uint64(32)) ^ ids[1:] ^ np.uint64(0x9E3779B9)),
                              self.word_weight)
        return vector

    def _add(self, vector: np.ndarray, hashes: np.ndarray, weight: float) -> None:
        buckets = (hashes % np.uint64(self.dimensions)).astype(np.int64)
        # The sign from an independent bit: collisions then cancel on average instead of piling up.
        signs = 1.0 - 2.0 * ((hashes >> np.uint64(63)) & np.uint64(1)).astype(np.float64)
        vector += weight * np.bincount(buckets, weights=signs, minlength=self.dimensions)
