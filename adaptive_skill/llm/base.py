"""What the LLM protocol (adaptive_skill/protocols.py) exchanges: responses, usage, errors.

Messages are OpenAI-style chat dicts. A response carries the assistant message ready to append
to the history, parsed tool calls, token usage and cost, so callers never touch litellm types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adaptive_skill.errors import UserError


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # JSON text, as the model produced it (may be malformed: the caller decides)


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class LLMResponse:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    model: str = ""
    duration_sec: float = 0.0
    finish_reason: str | None = None

    def message(self) -> dict[str, Any]:
        """The assistant message to append to the chat history."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls]
        return message


class LLMError(Exception):
    """A model call failed after its retries (the caller records it; never a silent default)."""


class LLMConfigError(UserError):
    """The user must fix something: a missing API key, an unknown model, a missing extra."""


class ModelUnavailable(LLMError):
    """A role's endpoint could not be reached after its retries (connection refused or reset, service
    unavailable, bad gateway, timeouts): not the task's failure nor the model's answer. Like a spent
    budget, it stops the run before anything is recorded from the failed call; --resume goes on."""


class BudgetExceeded(LLMError):
    """A cost or token budget (per task or per run) is spent; no further call is made."""


class StructuredOutputError(LLMError):
    """The model's JSON still failed its schema after the repair retry."""

    def __init__(self, message: str, raw: str = ""):
        super().__init__(message)
        self.raw = raw

