"""One team session: members asked in turn, every reply recorded with what it cost.

The transcript goes two ways: each entry becomes a `team_*` event in the run's events.jsonl as
it happens (so a crash loses nothing said before it), and the whole list is written to
`team.json` in the evolve directory at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adaptive_skill.config import TeamMemberConfig
from adaptive_skill.evolve.team.formation import Formation
from adaptive_skill.evolve.team.prompts import persona
from adaptive_skill.files import write_json_atomic
from adaptive_skill.llm.accounting import Accounting, Totals
from adaptive_skill.llm.base import BudgetExceeded, LLMError, ModelUnavailable
from adaptive_skill.protocols import LLM, Schema

Emit = Callable[..., Any]  # RunDir.event's signature: emit(kind, **fields)


class SessionEnded(Exception):
    """A step only the leader can take failed (or the budget is spent): the session ends without a change."""

    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status


class Transcript:
    def __init__(self, path: Path, task_id: str, emit: Emit | None = None):
        self.path, self.task_id, self.emit = path, task_id, emit
        self.entries: list[dict[str, Any]] = []

    def record(self, what: str, **data: Any) -> dict[str, Any]:
        entry = {"what": what, **data}
        self.entries.append(entry)
        if self.emit is not None:
            self.emit(f"team_{what}", task=self.task_id, **data)
        return entry

    def save(self, **summary: Any) -> None:
        write_json_atomic(self.path, {"task": self.task_id, **summary, "entries": self.entries})


def spend_dict(spend: Totals) -> dict[str, Any]:
    """What the transcript and the outcome say of a spend."""
    return {"calls": spend.calls, "tokens": spend.prompt_tokens + spend.completion_tokens,
            "cost": round(spend.cost, 6)}


class Team:
    """The formed team and the model its members speak through."""

    def __init__(self, llm: LLM, formation: Formation, transcript: Transcript, task_id: str,
                 accounting: Accounting | None = None):
        self.llm, self.formation, self.transcript, self.task_id = llm, formation, transcript, task_id
        self.accounting = accounting
        self.spent = Totals()  # the whole session's calls, tokens and cost

    @property
    def leader(self) -> TeamMemberConfig:
        return self.formation.leader

    @property
    def members(self) -> list[TeamMemberConfig]:
        return self.formation.members

    @property
    def collaborators(self) -> list[TeamMemberConfig]:
        return self.formation.collaborators

    def ask(self, member: TeamMemberConfig, stage: str, prompt: str, schema: type[Schema], *,
            turn: int | None = None, guest: bool = False, required: bool = False) -> Schema | None:
        """One member's reply, or None if their call failed (they sit this one out). A failure of a
        `required` step, or a spent budget, ends the session."""
        messages = [{"role": "system", "content": persona(member, guest)}, {"role": "user", "content": prompt}]
        before = self._totals()
        speaker = {"stage": stage, "turn": turn, "speaker": member.name,
                   "role": "guest" if guest else "leader" if member is self.leader else "member"}
        try:
            reply = self.llm.complete_json(messages, schema, task_id=self.task_id)
        except ModelUnavailable:
            raise  # the run stops; the evolve phase is redone on resume
        except LLMError as exc:
            self.transcript.record("message", **speaker, error=str(exc), **self._spend(before))
            if isinstance(exc, BudgetExceeded):
                raise SessionEnded("budget", str(exc)) from None
            if required:
                raise SessionEnded("error", f"{stage}: {member.name}'s reply failed: {exc}") from None
            return None
        self.transcript.record("message", **speaker, reply=reply.model_dump(), **self._spend(before))
        return reply

    def _totals(self) -> Totals:
        return self.accounting.totals(task_id=self.task_id) if self.accounting else Totals()

    def _spend(self, before: Totals) -> dict[str, Any]:
        """What this call cost, from the run's accounting (calls of a session run one at a time)."""
        after = self._totals()
        spend = {name: getattr(after, name) - getattr(before, name)
                 for name in ("calls", "prompt_tokens", "completion_tokens", "cost")}
        for name, value in spend.items():
            setattr(self.spent, name, getattr(self.spent, name) + value)
        return spend_dict(Totals(**spend))
