"""LLMClient: the LLM protocol over litellm, with retries, budgets, accounting and JSON output.

litellm is imported on the first call, never at import time (it takes seconds). Tests inject
`completion_fn` (a fake transport raising litellm's real exception classes) and `sleep`.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any, Literal

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm import structured
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import LLMConfigError, LLMError, LLMResponse, ModelUnavailable, ToolCall, Usage
from adaptive_skill.llm.negotiate import Negotiated, Way
from adaptive_skill.protocols import Schema

JsonMode = Literal["schema", "object", "prompt"]
_ErrorKind = Literal["retry", "config", "fatal"]


class LLMClient:
    """One role's model. Thread-safe: worker threads may share one client."""

    def __init__(self, config: ModelConfig, accounting: Accounting, *, role: str,
                 completion_fn: Callable[..., Any] | None = None, sleep: Callable[[float], None] = time.sleep,
                 supports_tools: bool | None = None, json_mode: JsonMode | None = None, supports_grammar: bool = False,
                 protocol_demo: bool = False, evolver_demo: bool = False, extra_request: dict[str, Any] | None = None,
                 rng: random.Random | None = None, backoff_base: float = 1.0, backoff_cap: float = 60.0):
        """`supports_tools`, `protocol_demo`: the model's own way of talking to the agent (the config's
        `protocol` and `protocol_demo` override them); `evolver_demo`: whether the structured evolver
        sends it its worked example (the config's `evolver_demo` overrides it); `extra_request`: more
        litellm arguments."""
        self.config = config
        self.model = config.model
        self.role = role
        self.accounting = accounting
        self._completion_fn = completion_fn
        self._sleep = sleep
        self._supports_tools = {"tools": True, "text": False}.get(config.protocol, supports_tools)
        # The text protocol's worked example before each task (agent/protocol.py): for the models
        # measured to need it, never imposed on others.
        self.protocol_demo = protocol_demo if config.protocol_demo is None else config.protocol_demo
        self.evolver_demo = evolver_demo if config.evolver_demo is None else config.evolver_demo
        self._extra_request = dict(extra_request or {})
        self._json_mode = json_mode
        self.structured_way: Way | None = None  # set by negotiate(), or by a run that kept it (endpoints.json)
        # takes a GBNF grammar for complete(): an embedded model, or a served one whose endpoint was
        # found to take it (negotiate_grammar, or models.<role>.grammar set)
        self.grammar_way: str | None = config.grammar if config.grammar in ("grammar", "guided_grammar") else None
        self.supports_grammar = supports_grammar or self.grammar_way is not None
        self._rng = rng or random.Random()
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._checked = completion_fn is not None  # an injected transport needs no key

    @property
    def supports_tools(self) -> bool:
        """Native tool calling, from litellm's model map unless given to the constructor."""
        if self._supports_tools is None:
            litellm = import_litellm()
            try:
                self._supports_tools = bool(litellm.supports_function_calling(model=self.model))
            except Exception:  # unknown model or provider: use the text protocol
                self._supports_tools = False
        return self._supports_tools

    @supports_tools.setter
    def supports_tools(self, value: bool) -> None:
        self._supports_tools = value

    def check(self) -> None:
        """Fail now, in one line, if the model cannot be called at all (unknown provider, no key).
        Runs by itself before the first call; call it at start-up to fail before a long run."""
        if self._checked:
            return
        litellm = import_litellm()
        try:
            litellm.get_llm_provider(self.model)
        except Exception:
            raise LLMConfigError(
                f"unknown model {self.model!r} (models.{self.role}.model): litellm needs provider/model, "
                "e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4o-mini") from None
        missing = litellm.validate_environment(model=self.model, api_key=self.config.api_key,
                                               api_base=self.config.api_base).get("missing_keys", [])
        # Only keys and bases are certain; cloud credentials (AWS, Vertex) may come from the machine.
        if not self.config.api_key and (keys := [k for k in missing if k.endswith("_API_KEY")]):
            raise LLMConfigError(f"no API key for {self.model}: set {' or '.join(keys)} "
                                 f"(or models.{self.role}.api_key)")
        if not self.config.api_base and (bases := [k for k in missing if k.endswith("_API_BASE")]):
            raise LLMConfigError(f"no API base for {self.model}: set {' or '.join(bases)} "
                                 f"(or models.{self.role}.api_base)")
        self._checked = True

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 task_id: str | None = None, grammar: str | None = None) -> LLMResponse:
        """`grammar` (GBNF) constrains the reply where supports_grammar says the model takes one."""
        if tools and not self.supports_tools:
            raise LLMError(f"{self.model} has no native tool calling: use the text protocol "
                           "(check llm.supports_tools before passing tools)")
        if grammar and not self.supports_grammar:
            raise LLMError(f"{self.model} takes no grammar (check llm.supports_grammar before passing one)")
        return self._call(messages, tools=tools, task_id=task_id, grammar=grammar)

    def complete_json(self, messages: list[dict[str, Any]], schema: type[Schema], *,
                      task_id: str | None = None) -> Schema:
        fields = self._structured_fields(schema)
        return structured.complete_json(lambda prompt: self._call(prompt, task_id=task_id, extra=fields),
                                        messages, schema)

    def negotiate_grammar(self) -> Negotiated:
        """Whether this role's served endpoint holds a reply to a GBNF grammar, and where it takes it
        (llm/negotiate.py GRAMMAR_WAYS): asked only of a model with `api_base` and
        `models.<role>.grammar: auto`, one small question each way, no retries. The way found is used
        from then on (supports_grammar); none found is an answer too ("none"): replies are then
        parsed as they come. A model set to a way, or to none, is not asked."""
        from adaptive_skill.llm.negotiate import (
            GRAMMAR_WAYS,
            PROBE_GRAMMAR,
            PROBE_GRAMMAR_MESSAGES,
            Negotiated,
            Tried,
            grammar_fields,
        )

        if self.config.grammar != "auto" or not self.config.api_base:
            way = self.grammar_way or "none"
            return Negotiated(self.role, self.model, self.config.api_base, way, probed=False)
        found = Negotiated(self.role, self.model, self.config.api_base, "none", probed=True)
        for way in GRAMMAR_WAYS:
            try:
                reply = self._call(PROBE_GRAMMAR_MESSAGES, extra=grammar_fields(way, PROBE_GRAMMAR), retries=0)
            except LLMConfigError:
                raise
            except LLMError as exc:
                found.tried.append(Tried(way, f"refused: {_one_line(exc, 160)}"))
                continue
            text = (reply.content or "").strip()
            if text != "kiwi":
                found.tried.append(Tried(way, f"ignored: replied {' '.join(text.split())[:40]!r}"))
                continue
            found.tried.append(Tried(way, "ok"))
            found.way = self.grammar_way = way
            self.supports_grammar = True
            break
        return found

    def negotiate(self, schema: type[Schema]) -> Negotiated:
        """How this role's endpoint takes a reply of `schema` (llm/negotiate.py): litellm's knowledge
        of a hosted model it places, else one small question each way, strongest first, without
        retries (a refusal is an answer). The way found is used from then on; with none found the
        result's `way` is None and nothing is changed."""
        from adaptive_skill.llm.negotiate import WAYS, Negotiated, Tried, probe_messages, request_fields

        mode = self._json_mode or _detect_json_mode(import_litellm(), self.model)  # given: the embedded models'
        if not self.config.api_base and mode != "prompt":
            self.structured_way = {"schema": "json_schema", "object": "json_object"}[mode]
            return Negotiated(self.role, self.model, None, self.structured_way, probed=False)
        found = Negotiated(self.role, self.model, self.config.api_base, None, probed=True)
        for way in WAYS:
            try:
                reply = self._call(structured.with_instruction(probe_messages(schema), schema),
                                   extra=request_fields(way, schema), retries=0)
                structured.parse_json(reply.content, schema)
            except LLMConfigError:
                raise  # no key, no such model: no way will do
            except (LLMError, ValueError) as exc:
                kind = "refused" if isinstance(exc, LLMError) else "no valid reply"
                found.tried.append(Tried(way, f"{kind}: {_one_line(exc, 160)}"))
                continue
            found.tried.append(Tried(way, "ok"))
            found.way = self.structured_way = way
            break
        return found

    # ------------------------------------------------------------------------------------------

    def _call(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
              task_id: str | None = None, extra: dict[str, Any] | None = None,
              grammar: str | None = None, retries: int | None = None) -> LLMResponse:
        litellm = import_litellm()
        self.check()
        completion = self._completion_fn or litellm.completion
        request = self._request(messages, tools, None)
        for key, value in (extra or {}).items():  # extra_body merges: a grammar may sit there too
            request[key] = {**request.get(key, {}), **value} if key == "extra_body" else value
        if grammar and self.grammar_way:  # a served model: in the body, where its endpoint takes it
            from adaptive_skill.llm.negotiate import grammar_fields

            body = grammar_fields(self.grammar_way, grammar)["extra_body"]
            request["extra_body"] = {**request.get("extra_body", {}), **body}
        elif grammar:
            request["grammar"] = grammar
        max_retries = self.config.max_retries if retries is None else retries
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            error: Exception | None = None
            with self.accounting.slot():
                self.accounting.check_budget(task_id)  # after the wait: others may have spent it
                try:
                    raw = completion(**request)
                except Exception as exc:  # classified below; nothing escapes unexplained
                    error = exc
            if error is None:
                break
            kind = _classify(error, litellm)
            if kind == "retry" and attempt <= max_retries:
                self._sleep(self._backoff(attempt, error))
                continue
            self.accounting.record_failure(role=self.role, model=self.model, task_id=task_id)
            raise self._failure(kind, error, attempt) from error

        try:
            response = self._response(raw, litellm, duration=time.monotonic() - started)
        except (AttributeError, IndexError, KeyError, TypeError) as exc:  # a provider broke the OpenAI shape
            self.accounting.record_failure(role=self.role, model=self.model, task_id=task_id)
            raise LLMError(f"{self.model}: malformed response: {_one_line(exc)}") from exc
        self.accounting.record(role=self.role, model=self.model, task_id=task_id, usage=response.usage,
                               cost=response.cost, duration_sec=response.duration_sec, attempts=attempt)
        return response

    def _request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                 response_format: dict[str, Any] | None) -> dict[str, Any]:
        config = self.config
        request: dict[str, Any] = {
            "model": self.model, "messages": messages, "temperature": config.temperature,
            "max_tokens": config.max_tokens, "timeout": config.timeout_sec,
            "num_retries": 0,  # retries are ours: one policy, visible in accounting
            # A parameter the provider lacks (temperature on reasoning models, response_format) is
            # dropped instead of failing the call; the prompt still carries any JSON schema.
            "drop_params": True,
        }
        if config.seed is not None:
            request["seed"] = config.seed
        request.update(self._extra_request)
        if config.api_base:
            request["api_base"] = config.api_base
        if config.api_key:
            request["api_key"] = config.api_key
        if tools:
            request["tools"] = tools
        if response_format:
            request["response_format"] = response_format
        return request

    def _response(self, raw: Any, litellm: Any, *, duration: float) -> LLMResponse:
        choice = raw.choices[0]
        message = choice.message
        calls = [ToolCall(id=call.id or f"call_{index}", name=call.function.name,
                          arguments=_arguments_text(call.function.arguments))
                 for index, call in enumerate(getattr(message, "tool_calls", None) or [])]
        usage = getattr(raw, "usage", None)
        counted = Usage(prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                        completion_tokens=getattr(usage, "completion_tokens", 0) or 0)
        return LLMResponse(
            content=message.content, tool_calls=calls, usage=counted,
            cost=self._cost(raw, litellm, counted), model=self.model, duration_sec=duration,
            finish_reason=choice.finish_reason)

    def _cost(self, raw: Any, litellm: Any, usage: Usage) -> float:
        """The config's declared price where it gives one (free, or cost_per_token), else litellm's."""
        if self.config.free:
            return 0.0
        if (price := self.config.cost_per_token) is not None:
            return usage.prompt_tokens * price.input + usage.completion_tokens * price.output
        known = (getattr(raw, "_hidden_params", None) or {}).get("response_cost")
        if isinstance(known, int | float):
            return float(known)
        try:
            return float(litellm.completion_cost(completion_response=raw, model=self.model))
        except Exception as exc:  # a model missing from the cost map must not stop a run
            self.accounting.warn_unknown_cost(
                self.model, f"{_one_line(exc, 120)}; declare it: models.{self.role}.free: true, or "
                            f"models.{self.role}.cost_per_token: {{input: D, output: D}} in dollars per token")
            return 0.0

    def _structured_fields(self, schema: type[Schema]) -> dict[str, Any]:
        """The request fields that ask for `schema`: the negotiated way (negotiate), else litellm's."""
        from adaptive_skill.llm.negotiate import request_fields

        if self.structured_way is not None:
            return request_fields(self.structured_way, schema)
        if self._json_mode is None:
            self._json_mode = _detect_json_mode(import_litellm(), self.model)
        return request_fields({"schema": "json_schema", "object": "json_object"}.get(self._json_mode, "prompt"),
                              schema)

    def _backoff(self, attempt: int, error: Exception) -> float:
        """Exponential backoff with full jitter; a server's Retry-After is a floor."""
        ceiling = min(self._backoff_cap, self._backoff_base * 2 ** (attempt - 1))
        delay = self._rng.uniform(0, ceiling)
        retry_after = _retry_after(error)
        return min(self._backoff_cap, max(delay, retry_after)) if retry_after else delay

    def _failure(self, kind: _ErrorKind, error: Exception, attempts: int) -> Exception:
        if kind == "config":
            return LLMConfigError(self._config_message(error, _one_line(error, 160)))
        reason = _one_line(error)
        litellm = import_litellm()
        if kind == "retry" and _unreachable(error, litellm):
            where = f" at {self.config.api_base}" if self.config.api_base else ""
            hint = " (or raise its timeout_sec)" if isinstance(error, litellm.Timeout) else ""
            return ModelUnavailable(f"models.{self.role} ({self.model}{where}) unreachable after {attempts} "
                                    f"attempts{hint}: {reason}")
        if kind == "retry":
            return LLMError(f"{self.model}: gave up after {attempts} attempts: {reason}")
        return LLMError(f"{self.model}: {reason}")

    def _config_message(self, error: Exception, reason: str) -> str:
        litellm = import_litellm()
        if isinstance(error, litellm.AuthenticationError | litellm.PermissionDeniedError):
            provider = getattr(error, "llm_provider", None) or self.model.split("/")[0]
            return (f"{self.model}: the provider refused the API key ({reason}): check "
                    f"{provider.upper()}_API_KEY (or models.{self.role}.api_key)")
        if isinstance(error, litellm.NotFoundError):
            return f"{self.model}: model not found (models.{self.role}.model): {reason}"
        return f"{self.model} (models.{self.role}.model): {reason}"


def _unreachable(error: Exception, litellm: Any) -> bool:
    """Whether `error` says the endpoint is not there (rather than that it answered badly): litellm's
    connection, timeout, 503 and 502 errors, or anything caused by a refused, reset or timed-out
    connection. litellm reports a refused connection to an OpenAI-compatible server as an
    InternalServerError ("Connection error.") whose cause is openai's APIConnectionError."""
    if isinstance(error, litellm.APIConnectionError | litellm.ServiceUnavailableError | litellm.BadGatewayError
                  | litellm.Timeout):
        return True
    causes: list[type] = [ConnectionError, TimeoutError]
    try:
        import httpx
        import openai

        causes += [openai.APIConnectionError, httpx.TransportError]
    except ImportError:  # litellm needs both; a stripped install still has the builtins
        pass
    seen, link = 0, error.__cause__ or error.__context__
    while link is not None and seen < 16:
        if isinstance(link, tuple(causes)):
            return True
        link, seen = link.__cause__ or link.__context__, seen + 1
    return False


def _classify(error: Exception, litellm: Any) -> _ErrorKind:
    if isinstance(error, litellm.AuthenticationError | litellm.PermissionDeniedError | litellm.NotFoundError):
        return "config"
    if isinstance(error, litellm.RateLimitError | litellm.Timeout | litellm.APIConnectionError
                  | litellm.InternalServerError | litellm.ServiceUnavailableError | litellm.BadGatewayError):
        return "retry"
    if isinstance(error, litellm.BadRequestError):  # includes context-window and content-policy errors
        return "config" if "LLM Provider NOT provided" in str(error) else "fatal"
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status in (408, 429)):
        return "retry"
    return "fatal"


def _detect_json_mode(litellm: Any, model: str) -> JsonMode:
    try:
        if litellm.supports_response_schema(model=model):
            return "schema"
        _, provider, _, _ = litellm.get_llm_provider(model)
        if "response_format" in (litellm.get_supported_openai_params(model=model, custom_llm_provider=provider)
                                 or []):
            return "object"
    except Exception:  # unknown to litellm: the schema in the prompt is all we can do
        pass
    return "prompt"


def _retry_after(error: Exception) -> float:
    headers = getattr(getattr(error, "response", None), "headers", None) or getattr(error, "headers", None) or {}
    try:
        return max(0.0, float(headers.get("retry-after", 0)))
    except (TypeError, ValueError):  # an HTTP date or garbage: fall back to our own backoff
        return 0.0


def _arguments_text(arguments: Any) -> str:
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments if arguments is not None else {})


def _one_line(error: Exception, limit: int = 300) -> str:
    text = " ".join(str(error).split())
    # litellm's messages start with "litellm.<Class>:"; name the class of anything else.
    text = text.removeprefix("litellm.") if text.startswith("litellm.") else f"{type(error).__name__}: {text}"
    return text if len(text) <= limit else text[:limit - 3] + "..."
