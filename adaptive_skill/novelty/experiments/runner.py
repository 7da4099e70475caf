"""Run every missing (problem, condition, repeat) of an experiment and store it as it finishes.

Each run goes the full `max_iterations` (a stop rule that never fires): the conditions are
compared on sequences of equal length, and breakthroughs are still marked on the way. Repeat r
samples perspectives with seed `base + r`, the same for every condition, so conditions differ
by how they choose perspectives, not by luck of the draw. A run that ends on a spent budget or
Ctrl-C is not stored (it is incomplete) and ends the experiment; a re-run resumes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from adaptive_skill.config import NoveltyConfig
from adaptive_skill.llm import Accounting
from adaptive_skill.novelty.experiments.conditions import sampler_for
from adaptive_skill.novelty.experiments.problems import Problem
from adaptive_skill.novelty.experiments.store import RecordStore, Unit
from adaptive_skill.novelty.proposer import NoveltyTaskProposer, ProposalRun
from adaptive_skill.progress import Display
from adaptive_skill.protocols import LLM, Embedder

_VECTOR_DECIMALS = 5  # enough for distances to 1e-4; keeps records small


@dataclass(frozen=True)
class Plan:
    problems: list[Problem]
    conditions: list[str]
    repeats: int
    settings: NoveltyConfig  # max_iterations, language, thresholds; seed is the base seed

    @property
    def base_seed(self) -> int:
        return self.settings.seed or 0

    def units(self) -> list[Unit]:
        return [Unit(p.id, c, r) for p in self.problems for c in self.conditions for r in range(self.repeats)]


@dataclass
class Outcome:
    ran: int = 0
    skipped: int = 0
    stopped: str | None = None  # why the experiment ended early: "budget" or "interrupted"
    cost: float = 0.0  # this session's model cost
    tokens: int = 0  # and its tokens, the figure a free model's run still has
    failed_iterations: int = 0
    labels: list[str] = field(default_factory=list)  # the units run in this session


class _NeverStop:
    name = "fixed-length"

    def check(self, scores: Sequence[float], clusters: int) -> None:
        return None


class _RecordingEmbedder:
    """Passes calls through and keeps each text's vector, so records hold the embeddings the
    scores were computed from without embedding anything twice."""

    def __init__(self, inner: Embedder):
        self.inner, self.name, self.paraphrase_similarity = inner, inner.name, inner.paraphrase_similarity
        self.vectors: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        matrix = self.inner.embed(texts)
        self.vectors.update(zip(texts, matrix, strict=True))
        return matrix


class ExperimentRunner:
    def __init__(self, plan: Plan, store: RecordStore, llm: LLM, embedder: Embedder, accounting: Accounting,
                 categories: Sequence[str], display: Display):
        self.plan, self.store, self.llm, self.embedder = plan, store, llm, embedder
        self.accounting, self.categories, self.display = accounting, list(categories), display

    def run(self) -> Outcome:
        outcome = Outcome()
        texts = {p.id: p.text for p in self.plan.problems}
        start = self.accounting.totals()
        start_cost, start_tokens = start.cost, start.total_tokens
        self.display.cycle(lambda: self.accounting.totals().cost)
        units = self.plan.units()
        with self.display.phase("novelty experiment", len(units)) as phase:
            for unit in units:
                if self.store.has(unit):
                    outcome.skipped += 1
                    phase.finished(unit.label, "ok", "done before")
                    continue
                phase.started(unit.label)
                before = self.accounting.totals()
                run, vectors = self._run(unit, texts[unit.problem])
                if run.stop.kind in ("budget", "interrupted"):
                    outcome.stopped = run.stop.kind
                    phase.finished(unit.label, "error", f"{run.stop.kind}: not stored; re-run to resume")
                    break
                after = self.accounting.totals()
                cost = {"usd": round(after.cost - before.cost, 6),
                        "tokens": after.total_tokens - before.total_tokens, "calls": after.calls - before.calls}
                self.store.save(unit, {"problem_text": texts[unit.problem], "seed": self._seed(unit),
                                       "run": run.to_dict(), "vectors": vectors, "cost": cost})
                outcome.ran += 1
                outcome.failed_iterations += run.failures
                outcome.labels.append(unit.label)
                best = run.best
                note = f"{len(run.proposals)}/{len(run.iterations)} tasks" + (
                    f", best {best.novelty.score:.3f}" if best else "")
                phase.finished(unit.label, "ok" if run.proposals else "error", note)
        end = self.accounting.totals()
        outcome.cost, outcome.tokens = end.cost - start_cost, end.total_tokens - start_tokens
        return outcome

    def _seed(self, unit: Unit) -> int:
        return self.plan.base_seed + unit.repeat

    def _run(self, unit: Unit, text: str) -> tuple[ProposalRun, list[list[float]]]:
        settings = self.plan.settings.model_copy(update={"seed": self._seed(unit)})
        recorder = _RecordingEmbedder(self.embedder)
        proposer = NoveltyTaskProposer(self.llm, recorder, settings, self.categories, rule=_NeverStop(),
                                       sampler=sampler_for(unit.condition, settings.language, self._seed(unit)))
        run = proposer.run(text)
        vectors = [np.round(recorder.vectors[it.task.text()].astype(float), _VECTOR_DECIMALS).tolist()
                   for it in run.proposals]
        return run, vectors
