"""The questions for each kind of item, and the strict parsing of a posted rating form: every
answer is checked against its question, and a form with a missing, unknown or out-of-range field
is refused whole (FormError), so nothing half-valid is ever stored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("trajectory", "mutation", "task")
TEXT_LIMIT = 4000  # characters in a free-text answer
CONTROL_FIELDS = ("token",)  # posted with every form, checked by the app, not an answer


class FormError(ValueError):
    """A posted form that does not fit its question set; the message names the field."""


@dataclass(frozen=True)
class Question:
    name: str
    label: str
    choices: tuple[str, ...] = ()  # empty: a free-text answer
    keys: tuple[str, ...] = ()  # keyboard key per choice
    low: str = ""  # what the ends of a scale mean, shown beside it
    high: str = ""
    required: bool = True

    @property
    def is_text(self) -> bool:
        return not self.choices

    def parse(self, raw: str) -> Any:
        if self.is_text:
            text = raw.strip()
            if len(text) > TEXT_LIMIT:
                raise FormError(f"{self.name}: at most {TEXT_LIMIT} characters")
            return text or None
        if raw not in self.choices:
            raise FormError(f"{self.name}: expected one of {', '.join(self.choices)}")
        if self.choices == ("yes", "no"):
            return raw == "yes"
        return int(raw)


def _scale(name: str, label: str, low: str, high: str, first: int = 1, last: int = 5) -> Question:
    values = tuple(str(v) for v in range(first, last + 1))
    keys = tuple("t" if v == "10" else v for v in values)  # one key per value: 10 is 't' (ten)
    return Question(name, label, values, keys, low, high)


FORMS: dict[str, tuple[Question, ...]] = {
    "trajectory": (
        Question("solved", "Did the agent solve the task?", ("yes", "no"), ("y", "n")),
        _scale("score", "How far did it get?", "nothing useful", "fully solved", 0, 10),
        Question("what_went_wrong", "What went wrong?", required=False),
    ),
    "mutation": (
        _scale("useful", "Would this change help the agent on future tasks?", "not at all", "a lot"),
        _scale("novel", "Does it add something the library did not already say?", "nothing new", "clearly new"),
        Question("comment", "Comment", required=False),
    ),
    "task": (
        _scale("novel", "Is this task novel, unlike common terminal exercises?", "seen it often", "never seen"),
        _scale("feasible", "Could an agent do it in a terminal, and a test check it?", "not at all", "certainly"),
        Question("comment", "Comment", required=False),
    ),
}
ANSWER_FIELDS = tuple(dict.fromkeys(q.name for questions in FORMS.values() for q in questions))


def parse_answers(kind: str, form: Mapping[str, Any], repeated: set[str] | None = None) -> dict[str, Any]:
    """The answers of a posted form for an item of `kind`; FormError when anything does not fit.
    `repeated` names fields that were posted more than once (a tampered form)."""
    questions = {q.name: q for q in FORMS[kind]}
    unknown = sorted(set(form) - set(questions) - set(CONTROL_FIELDS))
    if unknown:
        raise FormError(f"unknown field(s): {', '.join(unknown)}")
    if repeated:
        raise FormError(f"field(s) given more than once: {', '.join(sorted(repeated))}")
    answers: dict[str, Any] = {}
    for name, question in questions.items():
        raw = form.get(name)
        if raw is not None and not isinstance(raw, str):
            raise FormError(f"{name}: expected text, not a file")
        if raw is None or (question.required and not raw.strip()):
            if question.required:
                raise FormError(f"{name}: missing ({question.label})")
            answers[name] = None
            continue
        answers[name] = question.parse(raw)
    return answers
