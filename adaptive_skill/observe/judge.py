"""The label-free judge: an LLM reads the task and the compressed trajectory and estimates success.

It is shown the task instruction and `compress(...)` of the trajectory, nothing else: never the
verifier's label, reward or test output. Its reply is validated by a schema built from the
configured categories (one repair round, inside the LLM layer); a judge that still fails is a
`JudgeFailure` (status judge_error) with its reason, returned in place of a verdict, never dropped.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from adaptive_skill.config import JudgeConfig
from adaptive_skill.llm.base import LLMError, ModelUnavailable, StructuredOutputError
from adaptive_skill.observe.cache import VerdictCache, content_key
from adaptive_skill.observe.compress import Compressed, compress
from adaptive_skill.observe.tokens import TokenCounter
from adaptive_skill.protocols import LLM

log = logging.getLogger(__name__)

PROMPT_VERSION = 3  # part of the cache key: a reworded prompt asks a new question
INSTRUCTION_MAX_CHARS = 12_000
OUTCOME_MAX_CHARS = 400  # bounds of the reply's sentences: a grammar made from the schema closes them,
REASON_MAX_CHARS = 400  # and a reply cannot run into the token limit inside a string (reply_max_chars)

# The reply's fields come in the order of reasoning: what happened, what (if anything) went wrong,
# and only then the score, which follows from the two. A model writes a JSON reply front to back; with
# the score first (prompt version 2) Qwen2.5-Coder-1.5B gave 5 to attempts its own outcome sentence
# called successful (docs/llm.md, "The judge").
SYSTEM_PROMPT = """You review the work of an autonomous agent that tried to solve a task in a Linux terminal.
You see the task and a compressed record of what the agent did: its first commands, every error with the
command that caused it, timeouts, repeated commands, loops its monitor detected (spiral events), its last
commands and what it submitted. No test was run for you: judge from the behaviour alone.

Reply with these fields, in this order:
- category: the kind of task, exactly one of: {categories}.
- outcome: one or two sentences: what the agent did about each requirement of the task, and what the
  terminal showed in the end (the output or the error).
- failure_reason: the specific thing that stands between this record and a solved task (a requirement no
  command addressed, an error that was never resolved, a wrong file, path or format, a result never
  produced), or "none" when nothing does.
- score: 0 to 10, following from your outcome and failure_reason:
  9-10 = every requirement was done by a command that succeeded, and nothing in the record contradicts it;
  7-8 = done, though the result was never shown or checked;
  4-6 = partly done: some requirement is missing or uncertain;
  1-3 = attempted, but the commands that mattered failed or did something else;
  0 = nothing useful was done.
  A failure_reason other than "none" means a score below {threshold:g}; "none" means {threshold:g} or more.

Errors that the agent later fixed are normal. Unresolved errors, loops, timeouts, a run that ended
without submitting, and a requirement that no command addressed are signs of failure."""

# Added at the end of the question when the final state was checked (observe/checks.py): the checks'
# output outranks the record. Last, after the record, so that a model that keeps the prompt it last
# read (the embedded ones) reads the question without checks again for nothing.
STATE_SECTION = """# The final state, checked after the agent stopped
These commands were written from the task alone and run, after the agent stopped, on a copy of what it
left. Judge the result by what they printed: a file that is missing, empty, or whose content or format
differs from what the task asks, or a branch, tag, row or commit that is not there, is a failure whatever
the agent's own commands showed.

{evidence}"""


def reply_max_chars(categories: Sequence[str]) -> int:
    """The longest reply the schema allows (its bounded strings plus the JSON around them): the judge
    role's max_tokens must reach it, at one token per character, for a reply never to be cut."""
    return 64 + max((len(c) for c in categories), default=0) + OUTCOME_MAX_CHARS + REASON_MAX_CHARS + 16


NO_REASON = {"", "none", "null", "n/a"}  # a failure_reason that gives none
UNSTATED = "no reason given; the judge's outcome: "  # a failing verdict whose reason is its outcome


def _reason_always_written(schema: dict[str, Any]) -> None:
    schema["properties"]["failure_reason"] = {**{k: v for k, v in schema["properties"]["failure_reason"].items()
                                                 if k not in ("anyOf", "default")},
                                              "type": "string", "minLength": 1, "maxLength": REASON_MAX_CHARS}
    schema["required"] = [*schema.get("required", []), "failure_reason"]


def reply_schema(categories: Sequence[str], pass_threshold: float) -> type[BaseModel]:
    """The judge's reply schema for one configuration: its category field allows only the
    configured categories (the model sees them as an enum), the score comes after the outcome and the
    failure reason it follows from, and a failing score needs a reason."""
    allowed = tuple(categories)

    class Verdict(BaseModel):  # the name the model sees in the schema; fields in the order written
        category: Literal[allowed]  # type: ignore[valid-type]
        outcome: str = Field(min_length=1, max_length=OUTCOME_MAX_CHARS,
                             description="what the agent did about each requirement, and what the terminal showed")
        failure_reason: str | None = Field(None, description="what stands between the record and a solved task, "
                                                              "else \"none\"")
        score: float = Field(ge=0, le=10, description=f"follows from the outcome and failure_reason; "
                                                       f"below {pass_threshold:g} when there is a failure_reason")
        # The schema the model sees asks for a non-empty string always: a grammar made from the schema
        # (embedded models) cannot express "required when score < threshold", so a small model left it
        # out and every such verdict was a judge error. Replies of other models may still say null.
        model_config = ConfigDict(json_schema_extra=_reason_always_written)

        @field_validator("category", mode="before")
        @classmethod
        def _spelling(cls, value: Any) -> Any:  # "System Administration" is the category meant
            return "-".join(value.strip().lower().replace("_", " ").split()) if isinstance(value, str) else value

        @model_validator(mode="after")
        def _reason_for_failures(self) -> Verdict:
            if self.score < pass_threshold and (self.failure_reason or "").strip().lower() in NO_REASON:
                raise ValueError(f"failure_reason is required when score < {pass_threshold:g}")
            if self.score >= pass_threshold:
                self.failure_reason = None
            return self

    return Verdict


@dataclass(frozen=True)
class Verdict:
    score: float
    category: str
    outcome: str
    failure_reason: str | None
    task_id: str | None = None
    key: str = ""  # content hash of the question (the cache key)
    cached: bool = False
    status: str = "ok"

    def likely_solved(self, threshold: float) -> bool:
        return self.score >= threshold

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class JudgeFailure:
    reason: str
    task_id: str | None = None
    key: str = ""
    status: str = "judge_error"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


JudgeResult = Verdict | JudgeFailure


@dataclass(frozen=True)
class JudgeItem:
    instruction: str
    trajectory: Any  # anything adaptive_skill.trajectory.as_view accepts
    task_id: str | None = None
    compressed: str | None = None  # Judge.compress(trajectory).text when the caller already has it
    evidence: str | None = None  # what the checks of the final state printed (observe/checks.py)


class Judge:
    def __init__(self, llm: LLM, config: JudgeConfig | None = None, cache_dir: Path | None = None,
                 counter: TokenCounter | None = None):
        self.llm = llm
        self.config = config or JudgeConfig()
        self.cache = VerdictCache(cache_dir) if cache_dir is not None else None
        self.counter = counter or TokenCounter()
        self.schema = reply_schema(self.config.categories, self.config.pass_threshold)

    def compress(self, trajectory: Any) -> Compressed:
        """The view of `trajectory` this judge reads; callers that show it elsewhere compute it once
        here and pass it back as `compressed`."""
        return compress(trajectory, self.config.compression_budget_tokens, self.counter)

    def messages(self, instruction: str, trajectory: Any, compressed: str | None = None,
                 evidence: str | None = None) -> list[dict[str, Any]]:
        """Exactly what the model is shown: the instruction and the compressed trajectory, and with
        `evidence` what the checks of the final state printed."""
        if compressed is None:
            compressed = self.compress(trajectory).text
        system = SYSTEM_PROMPT.format(categories=", ".join(self.config.categories),
                                      threshold=self.config.pass_threshold)
        user = (f"# Task\n{_clip_middle(instruction.strip(), INSTRUCTION_MAX_CHARS)}\n\n"
                f"# What the agent did (compressed)\n{compressed}")
        if evidence:
            user += "\n\n" + STATE_SECTION.format(evidence=evidence)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def key(self, messages: list[dict[str, Any]]) -> str:
        return content_key({"version": PROMPT_VERSION, "model": self.llm.model, "messages": messages,
                            "schema": self.schema.model_json_schema()})

    def judge(self, instruction: str, trajectory: Any, *, task_id: str | None = None) -> JudgeResult:
        try:
            messages = self.messages(instruction, trajectory)
        except (TypeError, ValueError) as exc:  # an unreadable trajectory is this item's failure
            return self._failed(f"unreadable trajectory: {exc}", task_id, "")
        return self._ask(messages, self.key(messages), task_id)

    def judge_many(self, items: Iterable[JudgeItem | tuple[str, Any] | tuple[str, Any, str]],
                   workers: int = 4) -> list[JudgeResult]:
        """Results in the order of `items`. The LLM's own concurrency limit still caps calls;
        identical questions in one batch are asked once."""
        items = [item if isinstance(item, JudgeItem) else JudgeItem(*item) for item in items]
        prepared: list[tuple[list[dict[str, Any]], str] | JudgeFailure] = []
        for item in items:
            try:
                messages = self.messages(item.instruction, item.trajectory, item.compressed, item.evidence)
                prepared.append((messages, self.key(messages)))
            except (TypeError, ValueError) as exc:
                prepared.append(self._failed(f"unreadable trajectory: {exc}", item.task_id, ""))
        unique: dict[str, tuple[list[dict[str, Any]], str | None]] = {}
        for item, entry in zip(items, prepared, strict=True):
            if not isinstance(entry, JudgeFailure):
                unique.setdefault(entry[1], (entry[0], item.task_id))
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="judge") as pool:
            futures = {key: pool.submit(self._ask, messages, key, task_id)
                       for key, (messages, task_id) in unique.items()}
            answers = {key: future.result() for key, future in futures.items()}
        return [entry if isinstance(entry, JudgeFailure) else replace(answers[entry[1]], task_id=item.task_id)
                for item, entry in zip(items, prepared, strict=True)]

    def _ask(self, messages: list[dict[str, Any]], key: str, task_id: str | None) -> JudgeResult:
        if self.cache is not None and (stored := self.cache.get(key)) is not None:
            reply = None
            with contextlib.suppress(ValueError):  # a stale or damaged entry: ask again and overwrite it
                reply = self.schema.model_validate(stored)
            if reply is not None:
                return self._verdict(reply, task_id, key, cached=True)
        try:
            # No task_id: judge tokens must not eat the agent's per-task budget (run totals still count).
            reply = self.llm.complete_json(messages, self.schema)
        except StructuredOutputError as exc:
            reply = self._unreasoned(exc.raw)
            if reply is None:
                return self._failed(f"invalid reply after repair: {exc}", task_id, key)
        except ModelUnavailable:
            raise  # no verdict to record: the run stops and asks again on resume
        except LLMError as exc:
            return self._failed(str(exc), task_id, key)
        if self.cache is not None:
            self.cache.put(key, reply.model_dump(mode="json"))
        return self._verdict(reply, task_id, key, cached=False)

    def _unreasoned(self, raw: str | None) -> BaseModel | None:
        """A reply still refused after the repair only because a failing score came with no reason
        ("none"): the score is the judgement, so it stands, and the judge's own outcome sentence is
        its reason, marked as such (UNSTATED). Small models do this (Qwen-0.5B: a score of 5 with
        "none", twice). Anything else wrong with the reply is still a judge error (None here)."""
        text = raw or ""
        try:  # the object, without prose around it; raw newlines inside strings as parse_json takes them
            data = json.loads(text[text.find("{"):text.rfind("}") + 1], strict=False)
        except ValueError:
            return None
        if not isinstance(data, dict) or str(data.get("failure_reason") or "").strip().lower() not in NO_REASON:
            return None
        outcome = " ".join(str(data.get("outcome") or "").split())
        try:
            return self.schema.model_validate({**data, "failure_reason": f"{UNSTATED}{outcome}"[:REASON_MAX_CHARS]})
        except ValueError:
            return None

    @staticmethod
    def _verdict(reply: BaseModel, task_id: str | None, key: str, cached: bool) -> Verdict:
        data = reply.model_dump()
        return Verdict(score=float(data["score"]), category=data["category"], outcome=data["outcome"].strip(),
                       failure_reason=data["failure_reason"], task_id=task_id, key=key, cached=cached)

    @staticmethod
    def _failed(reason: str, task_id: str | None, key: str) -> JudgeFailure:
        log.warning("judge_error for %s: %s", task_id or "a trajectory", reason)
        return JudgeFailure(reason=reason, task_id=task_id, key=key)


def judge_report(results: Sequence[JudgeResult], threshold: float) -> dict[str, Any]:
    """Counts for the cycle's report; every judge_error is listed with its reason."""
    verdicts = [r for r in results if isinstance(r, Verdict)]
    failures = [r for r in results if isinstance(r, JudgeFailure)]
    return {
        "n": len(results), "judged": len(verdicts), "cached": sum(v.cached for v in verdicts),
        "likely_solved": sum(v.likely_solved(threshold) for v in verdicts),
        "mean_score": round(sum(v.score for v in verdicts) / len(verdicts), 3) if verdicts else None,
        "by_category": dict(Counter(v.category for v in verdicts)),
        "judge_errors": [{"task_id": f.task_id, "reason": f.reason} for f in failures],
    }


def _clip_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters of the task cut ...]\n{text[-half:]}"
