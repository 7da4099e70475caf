"""The skill placed in the prompt (skill_in_prompt_tokens > 0): the body of the workspace's skill that
best matches the task, so that a model which rarely calls read_skill still gets its steps.

Relevance is the cosine between the instruction and the skill's name and description with the run's
embedder (the one memory ranking uses); the best skill whose body fits the token budget is placed, if
any is relevant at all (cosine above MIN_RELEVANCE). Without an embedder, or when it fails, nothing
is placed. The text
goes at the end of the system prompt, after what every task shares, so an embedded model keeps its
evaluated prefix from one attempt to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from adaptive_skill.skills import Skill

MIN_RELEVANCE = 0.1  # the lexical embedder scores unrelated texts up to about 0.06 here


@dataclass(frozen=True)
class InlineSkill:
    name: str
    body: str
    relevance: float
    tokens: int

    def text(self) -> str:
        return f"The skill that best matches this task, {self.name} (already read for you):\n{self.body.strip()}\n"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "body"}


def best_skill(skills: list[Skill], instruction: str, *, budget_tokens: int, embedder: Any,
               count_tokens: Callable[[str], int]) -> InlineSkill | None:
    """The most relevant skill whose placed text fits `budget_tokens`, or None."""
    if budget_tokens <= 0 or embedder is None or not skills or not instruction.strip():
        return None
    try:
        vectors = embedder.embed([instruction] + [f"{s.name.replace('-', ' ')}: {s.description}" for s in skills])
    except Exception:  # noqa: BLE001 - as memory ranking: an embedder failure never crashes a solve
        return None  # nothing placed; the agent still reads skills with read_skill
    ranked = sorted(zip((float(vectors[0] @ v) for v in vectors[1:]), skills, strict=True),
                    key=lambda pair: (-round(pair[0], 4), pair[1].name))
    for relevance, skill in ranked:
        if relevance < MIN_RELEVANCE:
            return None
        placed = InlineSkill(skill.name, skill.body, round(relevance, 4), 0)
        tokens = count_tokens(placed.text())
        if tokens <= budget_tokens:
            return InlineSkill(skill.name, skill.body, round(relevance, 4), tokens)
    return None
