"""The structured evolver (evolver.mode: structured): one question, one JSON reply, no command.

For a model too small to write a SKILL.md through a shell: it is asked once (`complete_json`, whose
schema becomes a grammar for embedded models, with its own one repair round for a reply that fails
the schema) for one skill as a small object (diagnosis, action, name, description, steps,
verification). The host cleans each part to one printable line, renders the SKILL.md itself
(skills.render_skill) into a scratch copy of the workspace, and the copy goes through the same
rules step as every evolver (evolver.enforce_rules / settle / apply_editable). A reply the host
refuses (a name that exists for `add`, a missing one for `replace`, a task id in the steps) or
that breaks a rule gets one more question with the reasons; whatever is still wrong is dropped.
The exchange is recorded as the evolver's trajectory, `evolver.json` in the evolve directory.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator

from adaptive_skill.config import EvolveConfig
from adaptive_skill.evolve.digest import Digest, read_bounded, read_digest
from adaptive_skill.evolve.evolver import apply_editable, copy_editable, enforce_rules, settle
from adaptive_skill.evolve.library import SkillText, rejected_commits, rejected_skills
from adaptive_skill.evolve.outcome import Changes, EvolveOutcome, Violation
from adaptive_skill.evolve.prompts import (
    DEMO_REPLY,
    STRUCTURED_RULES,
    STRUCTURED_SYSTEM,
    structured_demo,
    structured_instruction,
    structured_repair,
)
from adaptive_skill.evolve.relevance import names_situation, quotes_record, restated_rule, task_specific, unusable_step
from adaptive_skill.evolve.rules import skill_names
from adaptive_skill.files import write_json_atomic
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import BudgetExceeded, LLMError, ModelUnavailable, StructuredOutputError
from adaptive_skill.protocols import LLM
from adaptive_skill.runs import RunDir
from adaptive_skill.skills import NAME_PATTERN, SkillFormatError, parse_skill_text, render_skill

TRAJECTORY = "evolver.json"
RESAMPLED = ("refused", "reverted", "no change")  # outcomes after which another sample is asked (samples > 1)
REPEAT_OVERLAP = 0.7  # share of words in common with a rejected skill that makes a skill a repeat of it
MAX_NAME = 48
MAX_PART = 200  # description, each step, each verification line
MAX_REASON = 300
# NAME_PATTERN without its non-capturing group: grammar builders of embedded models take this form.
_NAME = r"^[a-z0-9]+(-[a-z0-9]+)*$"
Part = Annotated[str, Field(min_length=1, max_length=MAX_PART)]
# What a skill must not restate (relevance.py): the question's rules for each field but the diagnosis's,
# whose example names a real situation (zip not installed), and the system prompt.
RULE_TEXTS = (*STRUCTURED_RULES[1:], STRUCTURED_SYSTEM)


class SkillReply(BaseModel):
    """The one reply, its fields in the order they are written: the diagnosis first, so that the
    action, the name and the steps follow from what the failures share. With the name first,
    Qwen2.5-Coder-1.5B took the prompt's rule for names as the skill's topic (docs/llm.md, "The
    structured evolver"). Every field is asked for always (a grammar cannot say "only when adding");
    with action "none" the rest is ignored."""

    diagnosis: str = Field(min_length=1, max_length=MAX_REASON,
                           description="what the failed attempts share: the error or wrong result, the command "
                                       "that caused it and its exit code")
    action: Literal["add", "replace", "none"]
    name: str = Field(pattern=_NAME, max_length=MAX_NAME, description="a short name for the skill's topic")
    description: Part = Field(description='starts with "Use when": the situation in which to read the skill')
    steps: list[Part] = Field(min_length=1, max_length=6, description="general instructions or commands")
    verification: list[Part] = Field(min_length=1, max_length=3, description="checks that the result is right")

    @field_validator("name")
    @classmethod
    def _skill_name(cls, value: str) -> str:
        if not NAME_PATTERN.match(value):  # the project's one pattern decides, not the grammar's copy
            raise ValueError("not a valid skill name")
        return value


class StructuredEvolver:
    def __init__(self, llm: LLM, config: EvolveConfig, *, run: RunDir | None = None,
                 accounting: Accounting | None = None, sampler: Callable[[int], LLM] | None = None):
        """`run`: where the changes the gate rejected are found (its events), so that none is proposed
        again; without it nothing is refused for that. `sampler`: the evolver's model at a given
        sampling seed, for the questions after the first with evolver.samples > 1 (without it they go
        to `llm` again)."""
        self.llm, self.config, self.run, self.accounting, self.sampler = llm, config, run, accounting, sampler

    def evolve(self, workspace: Path, observations: Path, out_dir: Path, *, history: list[str] | None = None,
               drafts: Path | None = None, task_id: str = "evolve") -> EvolveOutcome:
        """`drafts` (solver-proposed skills) are not read: one question leaves no room for them. With
        evolver.samples N > 1, a reply the host refused, the rules reverted or `none` is followed by a
        fresh question at another sampling seed, up to N in all; each
        exchange is its own record (evolver.json, evolver-sample-2.json, ...)."""
        out_dir.mkdir(parents=True, exist_ok=True)
        samples = self.config.evolver.samples
        trajectories: list[str] = []
        tried: list[str] = []
        for index in range(samples):
            llm = self.llm if index == 0 or self.sampler is None else \
                self.sampler(sample_seed(self.config.seed, task_id, index))
            name = TRAJECTORY if index == 0 else f"evolver-sample-{index + 1}.json"
            record = _Record(out_dir / name, task_id, llm.model, self.accounting)
            outcome = EvolveOutcome(changes=Changes(), status="error", trajectories=trajectories)
            trajectories.append(str(record.path))
            try:
                self._evolve(llm, workspace, observations, history or [], task_id, record, outcome)
            finally:  # written even when something below dies
                record.save(outcome)
            asked = any(m["role"] == "assistant" for m in record.messages)
            if not asked or outcome.status not in RESAMPLED or index == samples - 1:
                break
            said = outcome.summary or ""  # "no change: ..." says its status; a refused add does not
            tried.append((said if said.startswith(outcome.status) else f"{outcome.status}: {said}")[:200])
        if tried:  # what the earlier samples said, before the one kept
            outcome.summary = f"sample {len(tried) + 1} of {samples}: {outcome.summary or outcome.status} " \
                              f"(earlier: {'; '.join(tried)})"
        return outcome

    def _evolve(self, llm: LLM, workspace: Path, observations: Path, history: list[str], task_id: str,
                record: _Record, outcome: EvolveOutcome) -> None:
        c = self.config
        if not (c.evolve_skills and not c.prompt_only):
            outcome.status = "skipped"
            outcome.summary = "the structured evolver writes skills, and skills may not change"
            return
        digest = read_digest(observations, pass_threshold=c.judge.pass_threshold)
        if not digest.tasks:
            # Nothing to diagnose: asked anyway, Qwen2.5-Coder-1.5B wrote the prompt's own example (a
            # skill to install zip) for batches where the judge had failed nothing (docs/llm.md).
            outcome.status = "no change"
            outcome.summary = "no failed attempt in the batch: nothing to diagnose, the evolver was not asked"
            return
        with tempfile.TemporaryDirectory(prefix="adaptive-skill-structured-") as scratch:
            before, after = Path(scratch) / "before", Path(scratch) / "after"
            copy_editable(workspace, before)
            shutil.copytree(before, after, symlinks=True)
            existing = sorted(skill_names(before))
            # Qwen2.5-Coder-1.5B proposed the skill the gate had just rejected again, word for word,
            # although the history in its prompt said so (docs/log/results-runs.md, run 6)
            rejected = rejected_skills(workspace, rejected_commits(self.run))
            library = [(name, _description(before / "skills" / name / "SKILL.md")) for name in existing]
            record.instruction = structured_instruction(skills=library, max_skills=c.max_skills,
                                                        protect_skills=c.protect_skills, digest=digest.text,
                                                        history=history, skill_use=digest.skill_use,
                                                        network=c.sandbox.allow_network,
                                                        programs=digest.programs)
            # the worked example, for a model measured to need it (llm.evolver_demo; docs/llm.md)
            record.demo = bool(getattr(llm, "evolver_demo", False))
            demo = structured_demo(network=c.sandbox.allow_network) if record.demo else []
            record.messages += [{"role": "system", "content": STRUCTURED_SYSTEM}, *demo,
                                {"role": "user", "content": record.instruction}]
            turns = {"left": 1}  # one more question, for a refusal or a rules violation

            def ask_again(problems: list[str]) -> SkillReply | None:
                if turns["left"] <= 0:
                    return None
                turns["left"] -= 1
                record.messages.append({"role": "user", "content": structured_repair(problems)})
                return self._ask(llm, record, task_id, outcome)

            def write(answer: SkillReply) -> list[str]:
                return _write(after, before, answer, set(existing), digest, rejected, network=c.sandbox.allow_network)

            reply = self._ask(llm, record, task_id, outcome)
            refusals = write(reply) if reply else []
            if refusals and (again := ask_again(refusals)) is not None:
                reply, refusals = again, write(again)
            if reply is None:  # _ask set the status
                return
            outcome.summary = _summary(reply, written=False)
            if refusals:
                outcome.violations.append(Violation("reply", "; ".join(refusals), [], repairable=False))
                outcome.status = "refused"
                return
            if reply.action == "none":
                outcome.status = "no change"
                return

            def repair(repairable: list[Violation]) -> None:
                nonlocal reply
                fixed = ask_again([v.message for v in repairable])
                if fixed is not None:  # the new reply replaces the change; nothing else is in `after`
                    reply = fixed
                    if problems := write(fixed):
                        outcome.violations.append(Violation("reply", "; ".join(problems), [], repairable=False))

            failures = digest.failures()
            enforce_rules(before, after, c, outcome, repair, failures=failures)
            settle(before, after, c, outcome, failures=failures)
            apply_editable(after, workspace)
            outcome.status = "submitted" if outcome.mutated else "no change" if reply.action == "none" else "reverted"
            outcome.summary = _summary(reply, written=outcome.mutated)

    def _ask(self, llm: LLM, record: _Record, task_id: str, outcome: EvolveOutcome) -> SkillReply | None:
        """One question (complete_json adds the schema and its own repair round); the reply is
        appended to the conversation as the assistant's message."""
        try:
            reply = llm.complete_json(record.messages, SkillReply, task_id=task_id)
        except ModelUnavailable:
            raise  # the run stops; the evolve phase is redone on resume
        except LLMError as exc:
            outcome.status = "budget" if isinstance(exc, BudgetExceeded) else "error"
            record.errors.append(str(exc)[:2000])
            if isinstance(exc, StructuredOutputError) and exc.raw:  # what the model last said, as it said it
                record.messages.append({"role": "assistant", "content": exc.raw[:20_000]})
            return None
        record.messages.append({"role": "assistant", "content": reply.model_dump_json()})
        return reply


def sample_seed(run_seed: int, task_id: str, index: int) -> int:
    """The evolver's sampling seed for question `index` (> 0) of one evolve step: the same on resume."""
    return int(hashlib.sha256(f"evolver-{run_seed}-{task_id}-{index}".encode()).hexdigest()[:8], 16)


def clean(text: str) -> str:
    """One printable line: control and format characters (NUL, escapes, line breaks) become spaces,
    runs of white space one space, and a list marker the model put in front ("1.", "-") goes."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    for marker in ("- ", "* ", "• "):
        flat = flat.removeprefix(marker)
    head, _, rest = flat.partition(" ")
    if rest and head.rstrip(".)").isdigit() and head[-1:] in ".)":
        flat = rest
    return flat.strip()


def _write(after: Path, before: Path, reply: SkillReply, existing: set[str], digest: Digest,
           rejected: list[SkillText] = (), *, network: bool = True) -> list[str]:
    """Reset `after` to `before` and write the reply's skill into it; the reasons it was refused
    (then `after` stays as `before`). `none` writes nothing. `rejected`: skills the gate rejected
    earlier in the run, which are not proposed again under their name or in other words."""
    shutil.rmtree(after)
    shutil.copytree(before, after, symlinks=True)
    if reply.action == "none":
        return []
    name = reply.name
    problems = []  # all of them at once: the model has one more question to mend them (quickstart,
    # 2026-11-27: told only that its name existed, the 1.5B renamed the skill and kept the failed command)
    if reply.action == "add" and name in existing:
        problems.append(f"skill {name} exists: choose a new name to add, or action \"replace\" to rewrite it")
    if reply.action == "replace" and name not in existing:
        # an add: the 1.5B wrote "replace" for a new skill, then answered "none" when told there was
        # nothing to replace; the budget is the rules step's, as for any add
        reply.action = "add"
    description = clean(reply.description)
    steps = [s for s in map(clean, reply.steps) if s]
    verification = [v for v in map(clean, reply.verification) if v]
    if not description or not steps or not verification:
        return [*problems, "the description, the steps and the verification each need some printable text"]
    if quoted := quotes_record([*steps, *verification]):
        problems.append(f"a step or check quotes the failures' record ({quoted[:80]!r}): write what the agent "
                        "should run instead, not what it ran")
    failures = digest.failures()
    if unusable := unusable_step(steps, failures, network=network):
        problems.append(unusable)
    text = " ".join([description, *steps, *verification])
    problems += task_specific(name, text, failures)  # the rules step's too: asked here, so the repair hears it
    if restated := restated_rule(text, RULE_TEXTS):
        problems.append(f"the skill restates the rules of this question ({restated!r}), not the failures: write "
                        "what the agent should do differently in the failures' situation")
    if not names_situation(text, digest.terms):
        shown = ", ".join(sorted(digest.terms)[:8])
        problems.append(f"the skill names nothing of the failures' situation (their programs and errors: {shown}): "
                        "say in which situation it applies and what to do there")
    if copies_demo(text):
        problems.append("the skill copies the example reply: write one for the failures above, from their own "
                        "commands and errors")
    if again := rejected_before(name, text, rejected):
        problems.append(f"the gate already rejected this skill ({again}): it did not help on the holdout; write a "
                        "different fix, or one for another failure")
    if problems:
        return problems
    folder = after / "skills" / name
    if folder.is_symlink() or (folder / "SKILL.md").is_symlink():
        return [f"skills/{name} is a link: it is not written through"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(render_skill(name, description, steps, verification), encoding="utf-8")
    return []


def rejected_before(name: str, text: str, rejected: list[SkillText] | tuple = ()) -> str | None:
    """Which rejected skill this one repeats: the same name, or at least REPEAT_OVERLAP of the
    words of the shorter of the two (description, steps and checks) in common."""
    words = _words(text)
    for old in rejected:
        if old.name == name:
            return f"{old.name}, {old.source}"
        try:
            data, body = parse_skill_text(old.text)
        except SkillFormatError:
            continue
        theirs = _words(f"{data.get('description', '')} {body}")
        if words and theirs and len(words & theirs) >= REPEAT_OVERLAP * min(len(words), len(theirs)):
            return f"{old.name}, {old.source}, in other words"
    return None


def copies_demo(text: str) -> bool:
    """Whether a skill's text (description, steps, checks) is the worked example's skill (prompts.
    DEMO_REPLY) in at least REPEAT_OVERLAP of the shorter one's words: a small model shown an example
    may hand it back, and its phrases (command not found, exit 127) would pass for any failure's."""
    demo = _words(" ".join([DEMO_REPLY["description"], *DEMO_REPLY["steps"], *DEMO_REPLY["verification"]]))
    words = _words(text)
    return bool(words) and len(words & demo) >= REPEAT_OVERLAP * min(len(words), len(demo))


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_./-]{2,}", text.lower()))


def _description(path: Path) -> str:
    try:
        data, _ = parse_skill_text(read_bounded(path))
    except SkillFormatError:
        return "(unreadable SKILL.md)"
    return " ".join(str(data.get("description", "")).split())[:200]


def _summary(reply: SkillReply | None, *, written: bool) -> str | None:
    if reply is None:
        return None
    reason = " ".join(reply.diagnosis.split())
    if reply.action == "none":
        return f"no change: {reason}"
    verb = "added" if reply.action == "add" else "replaced"
    if not written:
        return f"{reply.action} skill {reply.name} (not written): {reason}"
    return f"{verb} skill {reply.name}: {reason}"


class _Record:
    """The exchange as a trajectory the readers take (trajectory/load.py: an object with messages):
    the conversation as sent (the schema instruction complete_json merges into the system message
    is not repeated), each valid reply as the assistant's message (a reply that failed its schema
    twice as the model wrote it), and what the calls cost where the run's accounting is known."""

    def __init__(self, path: Path, task_id: str, model: str, accounting: Accounting | None):
        self.path, self.task_id, self.model, self.accounting = path, task_id, model, accounting
        self.instruction = ""
        self.messages: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.demo = False  # whether the worked example was sent before the question
        self.started = time.time()
        self.before = accounting.totals(task_id=task_id) if accounting else None

    def save(self, outcome: EvolveOutcome) -> None:
        data: dict[str, Any] = {
            "task_id": self.task_id, "model": self.model, "instruction": self.instruction,
            "status": outcome.status, "submission": outcome.summary, "started_at": self.started,
            "duration_sec": round(time.time() - self.started, 3), "messages": self.messages,
            "metadata": {"evolver": "structured", "schema": SkillReply.__name__, "errors": self.errors,
                         "demo": self.demo}}
        if self.accounting is not None and self.before is not None:
            spent = self.accounting.totals(task_id=self.task_id)
            prompt = spent.prompt_tokens - self.before.prompt_tokens
            completion = spent.completion_tokens - self.before.completion_tokens
            data["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                             "total_tokens": prompt + completion}
            data["cost"] = round(spent.cost - self.before.cost, 6)
        write_json_atomic(self.path, data)
