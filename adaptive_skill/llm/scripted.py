"""ScriptedLLM: deterministic replies from a file or a list, for tests (`scripted/<path>`).

A script is a YAML/JSON list of replies, or a mapping `{supports_tools: bool, replies: [...]}`.
Each reply is one of

    {content: "text"}                 # or content: {a: 1} -> sent as JSON text
    {tool_calls: [{name: bash, arguments: {command: ls}}]}
    {error: rate_limit | timeout | auth | bad_request}

with optional `usage: {prompt_tokens, completion_tokens}`, `cost`, `finish_reason` and `delay_sec`
(the call takes that long, holding its concurrency slot as a real call would: imitates latency).

Rule mode: when any reply has `when: <regex>`, replies are not consumed in order; each request
gets the first reply whose regex matches the request's text (every message's content and tool
call arguments, joined) and whose `min_temperature` (if any) the model samples at or above, or the
first reply without either as the default. Rule scripts make a
model's behaviour depend on what it is shown (skills in the system prompt, commands in a
trajectory), which keeps multi-role, multi-worker tests deterministic. Errors are
raised as the real client raises them once its retries are spent. Every request is recorded in
`requests`; budgets and the concurrency limit of the shared Accounting apply as for real models.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from adaptive_skill.llm import structured
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import LLMConfigError, LLMError, LLMResponse, ToolCall, Usage
from adaptive_skill.protocols import Schema


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScriptToolCall(_Strict):
    name: str
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    id: str | None = None


class ScriptUsage(_Strict):
    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)


class ScriptReply(_Strict):
    when: str | None = None  # regex over the request's text: rule mode (see the module docstring)

    @field_validator("when")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"'when' is not a valid regex: {exc}") from None
        return value
    # rule mode: this reply only for a model sampling at this temperature or hotter (a hot sample that
    # finds what a cold one misses: the explore phase's tests)
    min_temperature: float | None = None
    content: str | dict[str, Any] | list[Any] | None = None
    tool_calls: list[ScriptToolCall] = Field(default_factory=list)
    error: Literal["rate_limit", "timeout", "auth", "bad_request"] | None = None
    usage: ScriptUsage = Field(default_factory=ScriptUsage)
    cost: float = Field(0.0, ge=0.0)
    finish_reason: str | None = None
    delay_sec: float = Field(0.0, ge=0.0)


class Script(_Strict):
    supports_tools: bool = True
    protocol_demo: bool = False  # the text protocol's worked example before each task (agent/protocol.py)
    evolver_demo: bool = False  # the structured evolver's worked example before its question (evolve/prompts.py)
    replies: list[ScriptReply]


@dataclass(frozen=True)
class ScriptedRequest:
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    task_id: str | None
    schema: str | None  # the schema's class name for complete_json, else None


class ScriptedLLM:
    """Replays a script, one reply per call; never the default of any config."""

    def __init__(self, script: str | Path | list[dict[str, Any]], accounting: Accounting | None = None, *,
                 role: str = "scripted", supports_tools: bool | None = None, protocol_demo: bool | None = None,
                 evolver_demo: bool | None = None, temperature: float = 0.0):
        if isinstance(script, list):
            parsed, self.model = _validate({"replies": script}, "<inline script>"), "scripted/<inline>"
        else:
            parsed, self.model = _load(Path(script)), f"scripted/{script}"
        self.replies = parsed.replies
        self.supports_tools = parsed.supports_tools if supports_tools is None else supports_tools
        self.protocol_demo = parsed.protocol_demo if protocol_demo is None else protocol_demo
        self.evolver_demo = parsed.evolver_demo if evolver_demo is None else evolver_demo
        self.accounting = accounting or Accounting()
        self.role = role
        self.temperature = temperature  # the role's sampling temperature (rule mode: min_temperature)
        self.requests: list[ScriptedRequest] = []
        self._next = 0
        self._lock = threading.Lock()

    @property
    def remaining(self) -> int:
        return len(self.replies) - self._next

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 task_id: str | None = None) -> LLMResponse:
        if tools and not self.supports_tools:
            raise LLMError(f"{self.model} has no native tool calling: use the text protocol "
                           "(check llm.supports_tools before passing tools)")
        return self._reply(messages, tools, task_id, schema=None)

    def complete_json(self, messages: list[dict[str, Any]], schema: type[Schema], *,
                      task_id: str | None = None) -> Schema:
        return structured.complete_json(
            lambda prompt: self._reply(prompt, None, task_id, schema=schema.__name__), messages, schema)

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, task_id: str | None,
               schema: str | None) -> LLMResponse:
        with self.accounting.slot():
            self.accounting.check_budget(task_id)
            with self._lock:
                self.requests.append(ScriptedRequest(copy.deepcopy(messages), copy.deepcopy(tools), task_id, schema))
                if any(r.when is not None or r.min_temperature is not None for r in self.replies):
                    reply = _match(self.replies, messages, self.model, self.temperature)
                    self._next += 1
                else:
                    if self._next >= len(self.replies):
                        raise LLMError(f"{self.model}: script exhausted after {len(self.replies)} replies")
                    reply = self.replies[self._next]
                    self._next += 1
            if reply.delay_sec:
                time.sleep(reply.delay_sec)  # outside the lock: concurrent calls overlap, as real ones do
        if reply.error:
            self.accounting.record_failure(role=self.role, model=self.model, task_id=task_id)
            raise _scripted_error(self.model, self.role, reply.error)
        response = _response(reply, self.model, self._next)
        self.accounting.record(role=self.role, model=self.model, task_id=task_id, usage=response.usage,
                               cost=response.cost)
        return response


def _load(path: Path) -> Script:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))  # JSON is YAML too
    except FileNotFoundError:
        raise LLMConfigError(f"{path}: no such script for the scripted model") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise LLMConfigError(f"{path}: cannot read the script: {' '.join(str(exc).split())}") from None
    return _validate({"replies": data} if isinstance(data, list) else data, str(path))


def _validate(data: Any, where: str) -> Script:
    try:
        return Script.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        raise LLMConfigError(f"{where}: {location}: {first['msg']} ({exc.error_count()} problem(s))") from None


def _match(replies: list[ScriptReply], messages: list[dict[str, Any]], model: str,
           temperature: float = 0.0) -> ScriptReply:
    parts = []
    for message in messages:
        parts.append(str(message.get("content") or ""))
        parts += [str(call.get("function", {}).get("arguments", "")) for call in message.get("tool_calls") or []]
    text = "\n".join(parts)
    for reply in replies:
        hot_enough = reply.min_temperature is None or temperature >= reply.min_temperature
        if hot_enough and (reply.when is None or re.search(reply.when, text)) and \
                (reply.when is not None or reply.min_temperature is not None):
            return reply
    for reply in replies:
        if reply.when is None and reply.min_temperature is None:
            return reply
    raise LLMError(f"{model}: no rule of the script matches the request and there is no default reply")


def _response(reply: ScriptReply, model: str, number: int) -> LLMResponse:
    content = reply.content
    if content is not None and not isinstance(content, str):
        content = json.dumps(content)
    calls = [ToolCall(id=call.id or f"call_{number}_{index}", name=call.name,
                      arguments=call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments))
             for index, call in enumerate(reply.tool_calls)]
    finish = reply.finish_reason or ("tool_calls" if calls else "stop")
    return LLMResponse(content=content, tool_calls=calls,
                       usage=Usage(reply.usage.prompt_tokens, reply.usage.completion_tokens),
                       cost=reply.cost, model=model, finish_reason=finish)


def _scripted_error(model: str, role: str, kind: str) -> Exception:
    if kind == "auth":
        return LLMConfigError(f"{model}: the provider refused the API key (scripted): check "
                              f"SCRIPTED_API_KEY (or models.{role}.api_key)")
    if kind == "bad_request":
        return LLMError(f"{model}: BadRequestError: scripted bad request")
    name = {"rate_limit": "RateLimitError", "timeout": "Timeout"}[kind]
    return LLMError(f"{model}: gave up after retries: {name}: scripted {kind.replace('_', ' ')}")
