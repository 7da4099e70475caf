"""Novelty figures from embeddings: how far a text is from what exists, existed, or was rejected.

Every figure is a cosine over the configured embedder (lexical by default). Skills are compared
by what they say (description and body), not by their frontmatter boilerplate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from adaptive_skill.evolve.library import SkillHistory, SkillText
from adaptive_skill.evolve.team.schemas import Idea
from adaptive_skill.protocols import Embedder
from adaptive_skill.skills import SkillFormatError, parse_skill_text


def skill_essence(text: str) -> str:
    try:
        data, body = parse_skill_text(text)
    except SkillFormatError:
        return text
    return f"{data.get('description', '')}\n{body}"


def idea_text(idea: Idea) -> str:
    return "\n".join([idea.description, *idea.steps, *idea.verification])


@dataclass
class Figures:
    library_dissimilarity: float  # 1 - cosine to the nearest current skill
    nearest_skill: str | None
    historical_dissimilarity: float  # 1 - cosine to the nearest earlier version of any skill
    nearest_past: str | None
    rejected_overlap: float  # cosine to the nearest rejected skill
    nearest_rejected: str | None
    novelty: float  # the smallest distance of the three: as new as the closest thing seen before
    duplicate: bool  # some skill is as close as a paraphrase

    @property
    def closest(self) -> str | None:
        """The skill that sets the novelty figure."""
        options = [(1.0 - self.library_dissimilarity, self.nearest_skill),
                   (1.0 - self.historical_dissimilarity, self.nearest_past),
                   (self.rejected_overlap, self.nearest_rejected)]
        return max(options, key=lambda pair: pair[0])[1]

    def to_dict(self) -> dict:
        return self.__dict__.copy()


class NoveltyIndex:
    def __init__(self, embedder: Embedder, history: SkillHistory, duplicate_similarity: float):
        self.embedder = embedder
        self.history = history
        self.duplicate_similarity = duplicate_similarity
        self._groups = {key: (items, self._embed([skill_essence(s.text) for s in items]))
                        for key, items in (("current", history.current), ("past", history.past),
                                           ("rejected", history.rejected))}

    def assess(self, text: str, exclude: str | None = None) -> Figures:
        """`exclude`: the skill an edit targets; its current and earlier versions are not rivals
        (a rejected version of it still is)."""
        vector = self._embed([text])[0]
        nearest = {key: self._nearest(key, vector, exclude if key != "rejected" else None)
                   for key in self._groups}
        library, past, rejected = nearest["current"], nearest["past"], nearest["rejected"]
        distance = min(1.0 - library[1], 1.0 - past[1], 1.0 - rejected[1])
        return Figures(round(1.0 - library[1], 4), library[0], round(1.0 - past[1], 4), past[0],
                       round(rejected[1], 4), rejected[0], round(distance, 4),
                       1.0 - distance >= self.duplicate_similarity)

    def similar(self, text: str, exclude: str | None = None, k: int = 3) -> list[tuple[SkillText, float]]:
        """The k closest current skills and rejected ones, closest first."""
        vector = self._embed([text])[0]
        scored = []
        for key in ("current", "rejected"):
            items, matrix = self._groups[key]
            for item, similarity in zip(items, matrix @ vector if len(items) else [], strict=True):
                if key == "rejected" or item.name != exclude:
                    scored.append((item, round(float(similarity), 4)))
        return sorted(scored, key=lambda pair: -pair[1])[:k]

    def _nearest(self, key: str, vector: np.ndarray, exclude: str | None) -> tuple[str | None, float]:
        items, matrix = self._groups[key]
        best: tuple[str | None, float] = (None, 0.0)
        for item, similarity in zip(items, matrix @ vector if len(items) else [], strict=True):
            if item.name != exclude and float(similarity) > best[1]:
                best = (f"{item.name} ({item.source})", float(similarity))
        return best

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self.embedder.embed(texts) if texts else np.zeros((0, 1), dtype=np.float32)


class StageNovelty:
    """Novelty of each contribution within a stage: 1 - cosine to the closest earlier one."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self._seen: list[np.ndarray] = []

    def add(self, text: str) -> float:
        vector = self.embedder.embed([text])[0]
        novelty = 1.0 if not self._seen else 1.0 - max(float(v @ vector) for v in self._seen)
        self._seen.append(vector)
        return round(max(0.0, novelty), 4)


def revision_novelty(embedder: Embedder, old: str, new: str) -> float:
    """What a revision adds: its new lines measured against the draft it revised (0 if none)."""
    kept = set(old.splitlines())
    added = "\n".join(line for line in new.splitlines() if line.strip() and line not in kept)
    if not added:
        return 0.0
    vectors = embedder.embed([added, old])
    return round(max(0.0, 1.0 - float(vectors[0] @ vectors[1])), 4)
