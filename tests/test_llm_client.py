"""LLMClient over a fake transport that raises litellm's real exception classes (no network)."""

from __future__ import annotations

import logging
import random
import subprocess
import sys
import threading
import time
from typing import Literal

import pytest
from pydantic import BaseModel

from adaptive_skill.config import LimitsConfig, ModelConfig
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import BudgetExceeded, LLMConfigError, LLMError, StructuredOutputError, Usage
from adaptive_skill.llm.client import LLMClient
from adaptive_skill.llm.factory import make_llm
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.protocols import LLM

litellm = import_litellm()
MODEL = "anthropic/claude-sonnet-4-5"
BASH_TOOL = {"type": "function", "function": {"name": "bash", "description": "run a command",
                                              "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}


def reply(content: str | None = "ok", *, tool_calls: list[dict] | None = None, prompt: int = 10,
          completion: int = 5, cost: float | None = None, model: str = MODEL) -> object:
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    response = litellm.ModelResponse(
        model=model, choices=[{"message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
        usage={"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion})
    if cost is not None:
        response._hidden_params["response_cost"] = cost
    return response


class FakeTransport:
    """Plays a list of outcomes (a response, or an exception to raise) and records each request."""

    def __init__(self, *outcomes: object, delay: float = 0.0):
        self.outcomes = list(outcomes)
        self.requests: list[dict] = []
        self.delay = delay
        self._lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0

    def __call__(self, **request: object) -> object:
        with self._lock:
            self.requests.append(request)
            outcome = self.outcomes.pop(0) if len(self.outcomes) > 1 else self.outcomes[0]
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            time.sleep(self.delay)
            if isinstance(outcome, Exception):
                raise outcome
            return outcome
        finally:
            with self._lock:
                self.in_flight -= 1


class UpperBound(random.Random):
    """Full jitter drawn at its ceiling, so the backoff schedule itself is visible."""

    def uniform(self, a: float, b: float) -> float:
        return b


def client(transport: FakeTransport, *, accounting: Accounting | None = None, sleeps: list[float] | None = None,
           rng: random.Random | None = None, **config: object) -> LLMClient:
    config = {"model": MODEL, "max_retries": 4, **config}
    return LLMClient(ModelConfig(**config), accounting or Accounting(), role="agent", completion_fn=transport,
                     sleep=(sleeps.append if sleeps is not None else lambda _: None), rng=rng or UpperBound())


def rate_limit() -> Exception:
    return litellm.RateLimitError(message="slow down", llm_provider="anthropic", model=MODEL)


TRANSIENT = {
    "rate_limit": rate_limit,
    "timeout": lambda: litellm.Timeout(message="read timed out", model=MODEL, llm_provider="anthropic"),
    "connection": lambda: litellm.APIConnectionError(message="connection reset", llm_provider="anthropic", model=MODEL),
    "internal": lambda: litellm.InternalServerError(message="boom", llm_provider="anthropic", model=MODEL),
    "unavailable": lambda: litellm.ServiceUnavailableError(message="overloaded", llm_provider="anthropic", model=MODEL),
    "bad_gateway": lambda: litellm.BadGatewayError(message="bad gateway", llm_provider="anthropic", model=MODEL),
}


# ----------------------------------------------------------------------------------------------
# Retries


@pytest.mark.parametrize("kind", sorted(TRANSIENT))
def test_transient_errors_are_retried_with_growing_backoff(kind):
    transport = FakeTransport(TRANSIENT[kind](), TRANSIENT[kind](), TRANSIENT[kind](), reply("done"))
    sleeps: list[float] = []
    response = client(transport, sleeps=sleeps).complete([{"role": "user", "content": "hi"}])
    assert response.content == "done"
    assert len(transport.requests) == 4
    assert sleeps == [1.0, 2.0, 4.0]


def test_exhausted_retries_name_the_model_and_the_last_error():
    transport = FakeTransport(rate_limit())
    sleeps: list[float] = []
    accounting = Accounting()
    with pytest.raises(LLMError) as caught:
        client(transport, sleeps=sleeps, accounting=accounting, max_retries=3).complete([{"role": "user", "content": "x"}])
    assert len(transport.requests) == 4  # the first try + 3 retries
    assert sleeps == [1.0, 2.0, 4.0]
    assert str(caught.value) == f"{MODEL}: gave up after 4 attempts: RateLimitError: slow down"
    assert accounting.totals().failed_calls == 1


@pytest.mark.parametrize("kind", ["connection", "timeout", "unavailable", "bad_gateway"])
def test_an_endpoint_unreachable_after_its_retries_is_model_unavailable_not_an_answer(kind):
    """Issue 67: a server that goes away mid-run stops the run (ModelUnavailable, which the engine
    turns into a resumable stop) instead of failing every attempt after it as the agent's error."""
    from adaptive_skill.llm.base import ModelUnavailable

    transport = FakeTransport(TRANSIENT[kind]())
    with pytest.raises(ModelUnavailable) as caught:
        client(transport, max_retries=2, api_base="http://127.0.0.1:9/v1").complete([{"role": "user", "content": "x"}])
    assert len(transport.requests) == 3  # retried first
    message = str(caught.value)
    assert message.startswith(f"models.agent ({MODEL} at http://127.0.0.1:9/v1) unreachable after 3 attempts")
    assert ("timeout_sec" in message) == (kind == "timeout")
    with pytest.raises(LLMError) as other:  # a rate limit or a 500 is the model's trouble, not its absence
        client(FakeTransport(TRANSIENT["internal"]()), max_retries=1).complete([{"role": "user", "content": "x"}])
    assert not isinstance(other.value, ModelUnavailable)


def test_backoff_is_full_jitter_below_a_capped_ceiling():
    transport = FakeTransport(rate_limit())
    sleeps: list[float] = []
    llm = LLMClient(ModelConfig(model=MODEL, max_retries=8), Accounting(), role="agent", completion_fn=transport,
                    sleep=sleeps.append, rng=random.Random(3), backoff_base=0.5, backoff_cap=10.0)
    with pytest.raises(LLMError):
        llm.complete([{"role": "user", "content": "x"}])
    ceilings = [min(10.0, 0.5 * 2 ** i) for i in range(8)]
    assert len(sleeps) == 8
    assert all(0 <= s <= c for s, c in zip(sleeps, ceilings, strict=True))
    assert len(set(sleeps)) == 8  # jittered, not a fixed schedule


def test_retry_after_header_is_a_floor():
    error = litellm.RateLimitError(message="slow down", llm_provider="anthropic", model=MODEL,
                                   headers={"retry-after": "7"})
    sleeps: list[float] = []
    client(FakeTransport(error, reply()), sleeps=sleeps, rng=random.Random(0)).complete([{"role": "user", "content": "x"}])
    assert sleeps == [7.0]


@pytest.mark.parametrize("error", [
    litellm.BadRequestError(message="messages: field required", model=MODEL, llm_provider="anthropic"),
    litellm.ContextWindowExceededError(message="prompt is too long", model=MODEL, llm_provider="anthropic"),
    litellm.ContentPolicyViolationError(message="refused", model=MODEL, llm_provider="anthropic"),
])
def test_bad_requests_are_not_retried(error):
    transport = FakeTransport(error)
    sleeps: list[float] = []
    with pytest.raises(LLMError) as caught:
        client(transport, sleeps=sleeps).complete([{"role": "user", "content": "x"}])
    assert not isinstance(caught.value, LLMConfigError)
    assert (len(transport.requests), sleeps) == (1, [])
    assert str(caught.value).startswith(f"{MODEL}: ")


def test_auth_error_is_not_retried_and_reads_as_one_line():
    error = litellm.AuthenticationError(message="invalid x-api-key\n{details}", llm_provider="anthropic", model=MODEL)
    transport = FakeTransport(error)
    sleeps: list[float] = []
    with pytest.raises(LLMConfigError) as caught:
        client(transport, sleeps=sleeps).complete([{"role": "user", "content": "x"}])
    message = str(caught.value)
    assert (len(transport.requests), sleeps) == (1, [])
    assert "\n" not in message
    assert message.startswith(f"{MODEL}: the provider refused the API key (AuthenticationError: invalid x-api-key")
    assert message.endswith("check ANTHROPIC_API_KEY (or models.agent.api_key)")


def test_not_found_is_a_config_error():
    error = litellm.NotFoundError(message="model: claude-sonnet-9", llm_provider="anthropic", model=MODEL)
    transport = FakeTransport(error)
    with pytest.raises(LLMConfigError, match=r"model not found \(models.agent.model\)"):
        client(transport).complete([{"role": "user", "content": "x"}])
    assert len(transport.requests) == 1


def test_missing_key_fails_before_any_call(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    llm = LLMClient(ModelConfig(model=MODEL), Accounting(), role="agent")  # the real transport
    with pytest.raises(LLMConfigError) as caught:
        llm.complete([{"role": "user", "content": "x"}])
    assert str(caught.value) == f"no API key for {MODEL}: set ANTHROPIC_API_KEY (or models.agent.api_key)"


def test_a_configured_key_passes_the_check(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    LLMClient(ModelConfig(model=MODEL, api_key="sk-test"), Accounting(), role="judge").check()


def test_unknown_provider_is_a_config_error():
    llm = LLMClient(ModelConfig(model="claude-of-nowhere"), Accounting(), role="judge")
    with pytest.raises(LLMConfigError, match=r"unknown model 'claude-of-nowhere' \(models.judge.model\)"):
        llm.check()


def test_unexpected_exceptions_become_llm_errors_without_retry():
    transport = FakeTransport(KeyError("choices"))
    with pytest.raises(LLMError, match=r"KeyError: 'choices'"):
        client(transport).complete([{"role": "user", "content": "x"}])
    assert len(transport.requests) == 1


# ----------------------------------------------------------------------------------------------
# Request and response


def test_config_is_passed_through_and_litellm_retries_are_off():
    transport = FakeTransport(reply())
    client(transport, temperature=0.3, max_tokens=99, timeout_sec=12.5, api_base="http://proxy:4000",
           api_key="sk-x").complete([{"role": "user", "content": "x"}])
    request = transport.requests[0]
    assert {k: request[k] for k in ("model", "temperature", "max_tokens", "timeout", "api_base", "api_key",
                                    "num_retries")} == {
        "model": MODEL, "temperature": 0.3, "max_tokens": 99, "timeout": 12.5, "api_base": "http://proxy:4000",
        "api_key": "sk-x", "num_retries": 0}
    assert "tools" not in request and "response_format" not in request


def test_unset_key_and_base_are_not_sent():
    transport = FakeTransport(reply())
    client(transport).complete([{"role": "user", "content": "x"}])
    assert "api_key" not in transport.requests[0] and "api_base" not in transport.requests[0]


def test_tool_calls_are_parsed():
    calls = [{"id": "toolu_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls -la"}'}},
             {"id": None, "type": "function", "function": {"name": "submit", "arguments": "{}"}}]
    transport = FakeTransport(reply(None, tool_calls=calls))
    llm = client(transport)
    response = llm.complete([{"role": "user", "content": "list"}], tools=[BASH_TOOL])
    assert transport.requests[0]["tools"] == [BASH_TOOL]
    assert [(c.name, c.arguments) for c in response.tool_calls] == [("bash", '{"command": "ls -la"}'), ("submit", "{}")]
    assert response.tool_calls[0].id == "toolu_1" and response.tool_calls[1].id
    assert response.finish_reason == "tool_calls"
    message = response.message()
    assert message["role"] == "assistant" and message["tool_calls"][0]["function"]["name"] == "bash"


def test_usage_and_duration_are_reported():
    transport = FakeTransport(reply(prompt=120, completion=30), delay=0.2)
    response = client(transport).complete([{"role": "user", "content": "x"}])
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == (120, 30, 150)
    assert response.model == MODEL and response.duration_sec >= 0.2  # the call's own time is measured


def test_supports_tools_comes_from_litellm_and_can_be_overridden():
    accounting = Accounting()
    assert LLMClient(ModelConfig(model=MODEL), accounting, role="agent").supports_tools is True
    assert LLMClient(ModelConfig(model="nobody/unknown-model"), accounting, role="agent").supports_tools is False
    forced = LLMClient(ModelConfig(model="nobody/unknown-model"), accounting, role="agent", supports_tools=True)
    assert forced.supports_tools is True


def test_tools_for_a_model_without_tool_calling_are_refused():
    transport = FakeTransport(reply())
    llm = LLMClient(ModelConfig(model="nobody/unknown-model"), Accounting(), role="agent", completion_fn=transport)
    with pytest.raises(LLMError, match="no native tool calling"):
        llm.complete([{"role": "user", "content": "x"}], tools=[BASH_TOOL])
    assert transport.requests == []


# ----------------------------------------------------------------------------------------------
# Cost, accounting, budgets


def test_cost_comes_from_litellm_cost_map():
    accounting = Accounting()
    response = client(FakeTransport(reply(prompt=1000, completion=1000, model="gpt-4o-mini")), accounting=accounting,
                      model="gpt-4o-mini").complete([{"role": "user", "content": "x"}], task_id="t1")
    expected = litellm.completion_cost(completion_response=reply(prompt=1000, completion=1000, model="gpt-4o-mini"),
                                       model="gpt-4o-mini")
    assert response.cost == pytest.approx(expected) and response.cost > 0
    assert accounting.totals(task_id="t1").cost == pytest.approx(expected)


def test_unknown_model_costs_zero_with_one_warning(caplog):
    accounting = Accounting()
    llm = client(FakeTransport(reply(model="nobody/unknown-model")), accounting=accounting, model="nobody/unknown-model")
    with caplog.at_level(logging.WARNING, logger="adaptive_skill.llm.accounting"):
        costs = [llm.complete([{"role": "user", "content": "x"}]).cost for _ in range(3)]
    assert costs == [0.0, 0.0, 0.0]
    warnings = [r for r in caplog.records if "nobody/unknown-model" in r.getMessage()]
    assert len(warnings) == 1
    assert "counts as 0" in warnings[0].getMessage()
    assert "models.agent.free: true" in warnings[0].getMessage()  # and how to say what it costs
    assert accounting.totals().calls == 3


def test_a_declared_price_counts_and_free_is_free(caplog):
    """Issue 67: a model litellm cannot price (one behind your own server) is declared free, or given
    its dollars per token, so a budget in dollars holds; neither warns. Both at once is refused."""
    accounting = Accounting()
    priced = client(FakeTransport(reply(prompt=1000, completion=200, model="openai/qwen-coder")), accounting=accounting,
                    model="openai/qwen-coder", cost_per_token={"input": 1e-6, "output": 4e-6})
    free = client(FakeTransport(reply(prompt=1000, completion=200, model="openai/qwen-coder", cost=0.5)),
                  accounting=accounting, model="openai/qwen-coder", free=True)
    with caplog.at_level(logging.WARNING, logger="adaptive_skill.llm.accounting"):
        assert priced.complete([{"role": "user", "content": "x"}]).cost == pytest.approx(1000 * 1e-6 + 200 * 4e-6)
        assert free.complete([{"role": "user", "content": "x"}]).cost == 0.0
    assert not [r for r in caplog.records if "no price known" in r.getMessage()]
    assert accounting.totals().cost == pytest.approx(0.0018)
    with pytest.raises(ValueError, match="exclude each other"):
        ModelConfig(model="openai/x", free=True, cost_per_token={"input": 0, "output": 0})


def test_accounting_by_role_task_model_and_run():
    accounting = Accounting()
    agent = client(FakeTransport(reply(prompt=10, completion=5, cost=0.01)), accounting=accounting)
    judge = LLMClient(ModelConfig(model="openai/gpt-4o-mini"), accounting, role="judge",
                      completion_fn=FakeTransport(reply(prompt=100, completion=50, cost=0.1)))
    agent.complete([{"role": "user", "content": "x"}], task_id="a")
    agent.complete([{"role": "user", "content": "x"}], task_id="b")
    judge.complete([{"role": "user", "content": "x"}], task_id="a")
    snap = accounting.snapshot()
    assert snap["run"]["calls"] == 3 and snap["run"]["total_tokens"] == 180
    assert snap["run"]["cost"] == pytest.approx(0.12)
    assert snap["roles"]["agent"]["total_tokens"] == 30 and snap["roles"]["judge"]["calls"] == 1
    assert snap["tasks"]["a"]["total_tokens"] == 165 and snap["tasks"]["b"]["calls"] == 1
    assert set(snap["models"]) == {MODEL, "openai/gpt-4o-mini"}


def test_task_token_budget_stops_before_calling():
    accounting = Accounting(LimitsConfig(max_tokens_per_task=100))
    transport = FakeTransport(reply(prompt=40, completion=20))
    llm = client(transport, accounting=accounting)
    llm.complete([{"role": "user", "content": "x"}], task_id="t1")
    llm.complete([{"role": "user", "content": "x"}], task_id="t1")  # 60 < 100: allowed, reaches 120
    with pytest.raises(BudgetExceeded, match=r"task t1 token budget spent \(120 of 100\)"):
        llm.complete([{"role": "user", "content": "x"}], task_id="t1")
    assert len(transport.requests) == 2
    llm.complete([{"role": "user", "content": "x"}], task_id="t2")  # another task has its own budget
    assert len(transport.requests) == 3


def test_run_cost_budget_stops_every_role():
    accounting = Accounting(LimitsConfig(max_cost_per_run=0.05))
    transport = FakeTransport(reply(cost=0.03))
    agent = client(transport, accounting=accounting)
    judge = LLMClient(ModelConfig(model=MODEL), accounting, role="judge", completion_fn=transport)
    agent.complete([{"role": "user", "content": "x"}], task_id="t1")
    judge.complete([{"role": "user", "content": "x"}])
    for llm, task in ((agent, "t2"), (judge, None)):
        with pytest.raises(BudgetExceeded, match=r"run cost budget spent"):
            llm.complete([{"role": "user", "content": "x"}], task_id=task)
    assert len(transport.requests) == 2


def test_budget_is_rechecked_before_each_retry():
    accounting = Accounting(LimitsConfig(max_tokens_per_run=10))
    transport = FakeTransport(rate_limit())

    def others_spend_while_we_wait(_: float) -> None:
        accounting.record(role="judge", model=MODEL, task_id=None, usage=Usage(8, 4), cost=0.0)

    llm = LLMClient(ModelConfig(model=MODEL), accounting, role="agent", completion_fn=transport,
                    sleep=others_spend_while_we_wait)
    with pytest.raises(BudgetExceeded):
        llm.complete([{"role": "user", "content": "x"}])
    assert len(transport.requests) == 1


def test_concurrent_calls_are_capped_across_roles():
    accounting = Accounting(LimitsConfig(max_concurrent_llm_calls=3))
    transport = FakeTransport(reply(), delay=0.05)
    agent = client(transport, accounting=accounting)
    judge = LLMClient(ModelConfig(model=MODEL), accounting, role="judge", completion_fn=transport)
    threads = [threading.Thread(target=llm.complete, args=([{"role": "user", "content": "x"}],))
               for llm in (agent, judge) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(transport.requests) == 12
    assert transport.max_in_flight == 3
    assert accounting.totals().calls == 12


# ----------------------------------------------------------------------------------------------
# Structured output


class Verdict(BaseModel):
    score: int
    category: str


def test_complete_json_asks_for_the_schema_and_validates():
    transport = FakeTransport(reply('{"score": 7, "category": "git"}'))
    verdict = client(transport).complete_json([{"role": "system", "content": "You judge."},
                                               {"role": "user", "content": "judge this"}], Verdict)
    assert verdict == Verdict(score=7, category="git")
    request = transport.requests[0]
    assert request["response_format"]["type"] == "json_schema"  # litellm knows this model supports schemas
    assert request["response_format"]["json_schema"]["schema"] == Verdict.model_json_schema()
    system = request["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You judge.")
    assert '"score"' in system["content"]  # the schema is in the prompt as well
    assert len(request["messages"]) == 2


def test_json_mode_falls_back_to_the_prompt_for_unknown_models():
    transport = FakeTransport(reply('{"score": 1, "category": "x"}'))
    llm = client(transport, model="nobody/unknown-model")
    llm.complete_json([{"role": "user", "content": "judge"}], Verdict)
    request = transport.requests[0]
    assert "response_format" not in request
    assert request["messages"][0]["role"] == "system" and "JSON schema" in request["messages"][0]["content"]


def test_complete_json_tolerates_fences():
    transport = FakeTransport(reply('Here you go:\n```json\n{"score": 3, "category": "sql"}\n```\n'))
    assert client(transport).complete_json([{"role": "user", "content": "x"}], Verdict) == Verdict(score=3, category="sql")
    assert len(transport.requests) == 1


def test_complete_json_repairs_once_showing_the_error():
    transport = FakeTransport(reply('{"score": "high"}'), reply('{"score": 9, "category": "git"}'))
    accounting = Accounting()
    verdict = client(transport, accounting=accounting).complete_json([{"role": "user", "content": "x"}], Verdict,
                                                                     task_id="t9")
    assert verdict.score == 9
    repair = transport.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"score": "high"}'}
    assert "score: Input should be a valid integer" in repair[-1]["content"]
    assert "category: Field required" in repair[-1]["content"]
    assert accounting.totals(task_id="t9").calls == 2  # both calls are accounted


def test_complete_json_gives_up_after_one_repair():
    transport = FakeTransport(reply("not json at all"), reply('{"score": 1}'))
    with pytest.raises(StructuredOutputError) as caught:
        client(transport).complete_json([{"role": "user", "content": "x"}], Verdict)
    assert caught.value.raw == '{"score": 1}'
    assert "Verdict" in str(caught.value) and "category" in str(caught.value)
    assert len(transport.requests) == 2


# ----------------------------------------------------------------------------------------------
# Factory


def test_make_llm_routes_by_model_name(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text("- content: hi\n")
    accounting = Accounting()
    scripted = make_llm(ModelConfig(model=f"scripted/{script}"), accounting, "agent")
    assert isinstance(scripted, ScriptedLLM) and scripted.complete([]).content == "hi"
    assert scripted.accounting is accounting
    real = make_llm(ModelConfig(model=MODEL), accounting, "judge")
    assert isinstance(real, LLMClient) and real.role == "judge" and real.accounting is accounting


def test_importing_the_package_does_not_import_litellm():
    code = "import sys, adaptive_skill.llm; print('litellm' in sys.modules, 'llama_cpp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_the_client_satisfies_the_protocol():
    assert isinstance(client(FakeTransport(reply())), LLM)


def test_a_malformed_response_is_an_llm_error():
    empty = litellm.ModelResponse(model=MODEL, choices=[])
    empty.choices = []
    accounting = Accounting()
    with pytest.raises(LLMError, match=r"malformed response: IndexError"):
        client(FakeTransport(empty), accounting=accounting).complete([{"role": "user", "content": "x"}])
    assert accounting.totals().failed_calls == 1


def test_the_configured_protocol_overrides_the_models_own_and_extra_request_is_sent():
    """models.<role>.protocol: tools or text override what the model's profile says (auto keeps it);
    protocol_demo likewise (null keeps the profile's); extra_request (the embedded provider's instance
    key) reaches litellm with every call."""
    def client(protocol="auto", demo=None, **kwargs):
        return LLMClient(ModelConfig(model=MODEL, protocol=protocol, protocol_demo=demo), Accounting(),
                         role="agent", completion_fn=FakeTransport(reply()), **kwargs)

    assert client("tools", supports_tools=False).supports_tools is True
    assert client("text", supports_tools=True).supports_tools is False
    assert client("auto", supports_tools=False).supports_tools is False
    assert client("auto", supports_tools=True).supports_tools is True
    assert client(protocol_demo=True).protocol_demo is True and client().protocol_demo is False
    assert client(demo=False, protocol_demo=True).protocol_demo is False
    assert client(demo=True).protocol_demo is True
    with pytest.raises(ValueError):
        ModelConfig(model=MODEL, protocol="xml")
    transport = FakeTransport(reply())
    llm = LLMClient(ModelConfig(model=MODEL), Accounting(), role="judge", completion_fn=transport,
                    extra_request={"metadata": {"adaptive_skill_instance": "judge"}})
    llm.complete([{"role": "user", "content": "hi"}])
    assert transport.requests[0]["metadata"] == {"adaptive_skill_instance": "judge"}


class Verdictish(BaseModel):
    category: Literal["git", "files"]
    outcome: str
    score: float


def served(request_log: list, *, schema_ok: str | None):
    """A server that, like llama-cpp-python's, refuses the OpenAI json_schema format with a 500 and holds
    a reply to the schema only the way `schema_ok` names; otherwise it answers an object without the
    fields (what the 1.5B wrote under a bare JSON object)."""
    def transport(**request):
        request_log.append(request)
        fmt = request.get("response_format") or {}
        body = request.get("extra_body") or {}
        if fmt.get("type") == "json_schema" and schema_ok != "json_schema":
            raise litellm.InternalServerError(message="Input should be 'text' or 'json_object'",
                                              llm_provider="openai", model="qwen-coder")
        way = ("json_schema" if fmt.get("type") == "json_schema" else "json_object_schema" if "schema" in fmt
               else "body_json_schema" if "json_schema" in body else "guided_json" if "guided_json" in body
               else "json_object" if fmt else "prompt")
        if way == schema_ok:
            return reply('{"category": "git", "outcome": "made the tag", "score": 9}', model="openai/qwen-coder")
        return reply('{"answer": "yes"}', model="openai/qwen-coder")
    return transport


def test_a_served_model_gets_the_way_its_endpoint_takes_a_schema():
    """Issue 67: litellm cannot tell what a self-served model takes; the run asks once each way, strongest
    first, no retries, and keeps the first whose reply validates; replies then use it."""
    log: list = []
    llm = client(served(log, schema_ok="json_object_schema"), model="openai/qwen-coder",
                 api_base="http://127.0.0.1:9/v1")
    found = llm.negotiate(Verdictish)
    assert found.way == "json_object_schema" and found.probed
    assert [t.way for t in found.tried] == ["json_schema", "json_object_schema"]
    assert found.tried[0].outcome.startswith("refused:") and "json_object" in found.tried[0].outcome
    assert len(log) == 2  # one question each, no retry of the refusal
    assert llm.complete_json([{"role": "user", "content": "judge"}], Verdictish).score == 9
    assert log[-1]["response_format"] == {"type": "json_object", "schema": Verdictish.model_json_schema()}


def test_no_way_that_gives_a_valid_reply_is_one_line_naming_role_model_and_what_was_said():
    log: list = []
    llm = client(served(log, schema_ok=None), model="openai/qwen-coder", api_base="http://127.0.0.1:9/v1")
    found = llm.negotiate(Verdictish)
    assert found.way is None and len(found.tried) == 6
    line = found.line()
    assert "\n" not in line and line.startswith("models.agent (openai/qwen-coder at http://127.0.0.1:9/v1)")
    assert "json_schema: refused" in line and "prompt: no valid reply" in line


def test_a_hosted_model_litellm_knows_is_not_probed():
    log: list = []
    llm = client(served(log, schema_ok="json_schema"), model="gpt-4o-mini")
    found = llm.negotiate(Verdictish)
    assert found.way == "json_schema" and not found.probed and log == []


def test_an_embedded_model_is_not_probed():
    """The embedded models hold a reply to its schema by a grammar (json_mode given): nothing to ask."""
    log: list = []
    llm = LLMClient(ModelConfig(model="local/qwen2.5-coder-1.5b"), Accounting(), role="judge",
                    completion_fn=served(log, schema_ok="json_schema"), json_mode="schema")
    assert llm.negotiate(Verdictish).way == "json_schema" and log == []


def grammar_server(request_log: list, *, takes: str | None, refuses: str | None = None):
    """A server that holds a reply to a GBNF grammar only when it comes in the body field `takes`
    (llama.cpp's `grammar`, vLLM's `guided_grammar`), refuses a request carrying the field `refuses`
    with a 400, and otherwise answers what was asked."""
    def transport(**request):
        request_log.append(request)
        body = request.get("extra_body") or {}
        if refuses and refuses in body:
            raise litellm.BadRequestError(message=f"unknown field {refuses}", llm_provider="openai", model="q")
        if takes and takes in body:
            assert body[takes] == 'root ::= "kiwi"' or "root" in body[takes]
            return reply("kiwi", model="openai/qwen-coder")
        return reply("banana", model="openai/qwen-coder")
    return transport


@pytest.mark.parametrize("takes", ["grammar", "guided_grammar"])
def test_a_served_agent_model_gets_the_text_protocols_grammar_where_its_endpoint_takes_one(takes):
    """Issue 67, item 2: the agent's grammar reaches a served model in the body field its endpoint
    applies; found by a question whose grammar admits another word than the one asked for."""
    log: list = []
    llm = client(grammar_server(log, takes=takes, refuses="guided_grammar" if takes == "grammar" else None),
                 model="openai/qwen-coder", api_base="http://127.0.0.1:9/v1")
    assert not llm.supports_grammar
    found = llm.negotiate_grammar()
    assert found.way == takes and found.probed and llm.supports_grammar
    assert found.tried[-1].outcome == "ok" and len(log) == len(found.tried)  # one question each, no retries
    llm.complete([{"role": "user", "content": "task"}], grammar='root ::= "x"')
    assert log[-1]["extra_body"] == {takes: 'root ::= "x"'} and "grammar" not in {k for k in log[-1] if k != "extra_body"}
    assert "grammar by the body's " + takes in found.line()


def test_a_served_model_that_ignores_every_grammar_gets_none_and_the_line_says_why():
    log: list = []
    llm = client(grammar_server(log, takes=None, refuses="guided_grammar"), model="openai/qwen-coder",
                 api_base="http://127.0.0.1:9/v1")
    found = llm.negotiate_grammar()
    assert found.way == "none" and not llm.supports_grammar
    assert [t.outcome.split(":")[0] for t in found.tried] == ["ignored", "refused"]
    assert "takes no grammar" in found.line() and "banana" in found.line() and "\n" not in found.line()
    with pytest.raises(LLMError):
        llm.complete([{"role": "user", "content": "task"}], grammar='root ::= "x"')


def test_a_grammar_way_set_in_the_config_is_used_without_asking_and_an_api_model_is_never_asked():
    log: list = []
    llm = client(grammar_server(log, takes="grammar"), model="openai/qwen-coder", api_base="http://127.0.0.1:9/v1",
                 grammar="grammar")
    assert llm.supports_grammar and llm.negotiate_grammar().way == "grammar" and log == []
    assert client(grammar_server(log, takes="grammar"), model="gpt-4o-mini").negotiate_grammar().way == "none"
    assert log == []


def test_settle_grammar_writes_the_answer_into_the_agents_model_config():
    """What was found reaches every client made later from the config (each attempt's, a Ray node's)."""
    from adaptive_skill.llm.factory import make_llm  # noqa: F401  (the factory reads models.agent.grammar)
    from adaptive_skill.llm.negotiate import settle_grammar

    log: list = []
    model = ModelConfig(model="openai/qwen-coder", api_base="http://127.0.0.1:9/v1", protocol="text")
    llm = LLMClient(model, Accounting(), role="agent", completion_fn=grammar_server(log, takes="grammar"))
    assert settle_grammar(model, llm).way == "grammar" and model.grammar == "grammar"
    later = LLMClient(model, Accounting(), role="agent", completion_fn=grammar_server(log, takes="grammar"))
    assert later.supports_grammar and later.grammar_way == "grammar"
    assert settle_grammar(model, later) is None  # settled: nothing more to ask
    native = ModelConfig(model="openai/qwen-coder", api_base="http://127.0.0.1:9/v1", protocol="tools")
    asked = len(log)
    assert settle_grammar(native, LLMClient(native, Accounting(), role="agent",
                                            completion_fn=grammar_server(log, takes="grammar"))) is None
    assert len(log) == asked and native.grammar == "auto"  # native tool calls need no grammar


def test_a_refused_connection_that_litellm_calls_an_internal_server_error_is_model_unavailable():
    """What litellm really raises for an OpenAI-compatible server that is not listening (measured:
    InternalServerError "Connection error." caused by openai's APIConnectionError, caused by httpx's
    ConnectError): the server is gone, not failing; a plain 500 stays the model's trouble."""
    import httpx
    import openai

    from adaptive_skill.llm.base import ModelUnavailable

    def refused() -> Exception:
        request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
        try:
            try:
                raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
            except httpx.ConnectError as exc:
                raise openai.APIConnectionError(request=request) from exc
        except openai.APIConnectionError as exc:
            try:
                raise litellm.InternalServerError(message="OpenAIException - Connection error.",
                                                  llm_provider="openai", model="x") from exc
            except litellm.InternalServerError as outer:
                return outer

    with pytest.raises(ModelUnavailable):
        client(FakeTransport(refused()), max_retries=1, model="openai/x",
               api_base="http://127.0.0.1:9/v1").complete([{"role": "user", "content": "x"}])
    with pytest.raises(LLMError) as plain:
        client(FakeTransport(TRANSIENT["internal"]()), max_retries=1).complete([{"role": "user", "content": "x"}])
    assert not isinstance(plain.value, ModelUnavailable)
