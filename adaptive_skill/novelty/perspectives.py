"""Perspectives the proposer takes: an expert (occupation and field), a knowledge domain (a Dewey
Decimal division), or both at once (hybrid). The lists ship as YAML under novelty/data/.

Sampling deals from a shuffled deck and reshuffles only when it is used up, so no perspective
comes back before every other one has had its turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from importlib.resources import files
from typing import Literal, Protocol

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

Language = Literal["en", "zh"]
Perturbation = Literal["expert", "domain", "hybrid"]
Kind = Literal["expert", "domain", "hybrid", "none"]  # "none": the bare prompt, a baseline for experiments


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Occupation(_Strict):
    name: str = Field(min_length=1)
    field: str = Field(min_length=1)


class Domain(_Strict):
    code: str = Field(pattern=r"^\d{3}$")
    name: str = Field(min_length=1)
    main_class: str = Field(min_length=1)  # the top-level Dewey class the division belongs to


class _OccupationFile(_Strict):
    occupations: list[Occupation] = Field(min_length=1)


class _DivisionEntry(_Strict):
    code: str = Field(pattern=r"^\d{3}$")
    name: str = Field(min_length=1)


class _DomainFile(_Strict):
    classes: dict[str, str]
    divisions: list[_DivisionEntry] = Field(min_length=1)


@dataclass(frozen=True)
class Perspective:
    expert: Occupation | None = None
    domain: Domain | None = None

    @property
    def kind(self) -> Kind:
        if self.expert and self.domain:
            return "hybrid"
        if not self.expert and not self.domain:
            return "none"
        return "expert" if self.expert else "domain"

    @property
    def label(self) -> str:
        """Short, for one line of output: `Beekeeper (Agriculture & fisheries) x 620 Engineering`."""
        parts = []
        if self.kind == "none":
            return "no perspective"
        if self.expert:
            parts.append(f"{self.expert.name} ({self.expert.field})")
        if self.domain:
            parts.append(f"{self.domain.code} {self.domain.name}")
        return " x ".join(parts)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "label": self.label,
                "expert": self.expert.model_dump() if self.expert else None,
                "domain": self.domain.model_dump() if self.domain else None}


def load_occupations(language: Language) -> list[Occupation]:
    data = _read(f"occupations_{language}.yaml", _OccupationFile)
    return list(data.occupations)


def load_domains(language: Language) -> list[Domain]:
    data = _read(f"domains_{language}.yaml", _DomainFile)
    return [Domain(code=d.code, name=d.name, main_class=data.classes[d.code[0]]) for d in data.divisions]


def _read(name: str, model: type[_Strict]):
    resource = files("adaptive_skill.novelty") / "data" / name
    try:
        return model.model_validate(yaml.safe_load(resource.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError, KeyError) as exc:
        # Shipped data: a failure here is a broken install, not a user mistake.
        raise RuntimeError(f"novelty data file {name} is unreadable: {exc}") from exc


class _Deck:
    def __init__(self, cards: list, rng: random.Random):
        self._cards, self._rng, self._left = list(cards), rng, []

    def draw(self):
        if not self._left:
            self._left = self._cards[:]
            self._rng.shuffle(self._left)
        return self._left.pop()


class Sampler(Protocol):
    def sample(self) -> Perspective: ...


class PerspectiveSampler:
    """Draws perspectives of one kind from occupation and domain lists."""

    def __init__(self, perturbation: Perturbation, occupations: list[Occupation], domains: list[Domain],
                 rng: random.Random):
        if perturbation in ("expert", "hybrid") and not occupations:
            raise ValueError(f"{perturbation} perspectives need at least one occupation")
        if perturbation in ("domain", "hybrid") and not domains:
            raise ValueError(f"{perturbation} perspectives need at least one domain")
        self.perturbation = perturbation
        self._experts = _Deck(occupations, rng)
        self._domains = _Deck(domains, rng)

    @classmethod
    def shipped(cls, perturbation: Perturbation, language: Language, seed: int | None = None) -> PerspectiveSampler:
        """The sampler over the lists that ship with adaptive-skill, in `language`."""
        return cls(perturbation, load_occupations(language), load_domains(language), random.Random(seed))

    def sample(self) -> Perspective:
        expert = self._experts.draw() if self.perturbation in ("expert", "hybrid") else None
        domain = self._domains.draw() if self.perturbation in ("domain", "hybrid") else None
        return Perspective(expert=expert, domain=domain)
