"""ScriptedLLM: the deterministic model every unit test of the engine runs on."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from pydantic import BaseModel

from adaptive_skill.config import LimitsConfig, ModelConfig, ModelsConfig
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import BudgetExceeded, LLMConfigError, LLMError, StructuredOutputError
from adaptive_skill.llm.factory import make_llm
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.protocols import LLM

FIXTURES = Path(__file__).parent / "fixtures" / "scripted"


class Verdict(BaseModel):
    score: int
    category: str


def test_yaml_script_plays_tool_calls_then_content():
    accounting = Accounting()
    llm = ScriptedLLM(FIXTURES / "agent_ls.yaml", accounting, role="agent")
    assert isinstance(llm, LLM) and llm.supports_tools
    first = llm.complete([{"role": "user", "content": "what is here?"}], task_id="t1", tools=[{"type": "function"}])
    assert first.content is None and first.finish_reason == "tool_calls"
    assert [(c.name, json.loads(c.arguments)) for c in first.tool_calls] == [("bash", {"command": "ls"})]
    second = llm.complete([{"role": "user", "content": "what is here?"}, first.message()], task_id="t1")
    assert second.content == "The directory holds answer.txt. Done." and second.finish_reason == "stop"
    totals = accounting.totals(task_id="t1")
    assert (totals.calls, totals.total_tokens, round(totals.cost, 6)) == (2, 301, 0.0022)
    assert accounting.totals(role="agent").calls == 2


def test_requests_are_recorded():
    llm = ScriptedLLM([{"content": "a"}, {"content": "b"}])
    messages = [{"role": "user", "content": "one"}]
    llm.complete(messages, task_id="t")
    messages.append({"role": "user", "content": "mutated later"})
    llm.complete([{"role": "user", "content": "two"}], tools=[{"type": "function", "function": {"name": "bash"}}])
    assert [r.messages for r in llm.requests] == [[{"role": "user", "content": "one"}],
                                                  [{"role": "user", "content": "two"}]]
    assert llm.requests[0].task_id == "t" and llm.requests[1].tools[0]["function"]["name"] == "bash"
    assert llm.remaining == 0


def test_exhausted_script_is_an_error():
    llm = ScriptedLLM([{"content": "only"}])
    llm.complete([])
    with pytest.raises(LLMError, match=r"script exhausted after 1 replies"):
        llm.complete([])


@pytest.mark.parametrize(("kind", "error", "pattern"), [
    ("rate_limit", LLMError, r"gave up after retries: RateLimitError"),
    ("timeout", LLMError, r"gave up after retries: Timeout"),
    ("bad_request", LLMError, r"BadRequestError"),
    ("auth", LLMConfigError, r"refused the API key .*\(or models.judge.api_key\)"),
])
def test_scripted_errors_match_the_client(kind, error, pattern):
    accounting = Accounting()
    llm = ScriptedLLM([{"error": kind}, {"content": "after"}], accounting, role="judge")
    with pytest.raises(error, match=pattern) as caught:
        llm.complete([])
    if error is LLMError:
        assert not isinstance(caught.value, LLMConfigError)
    assert accounting.totals().failed_calls == 1
    assert llm.complete([]).content == "after"  # an error consumes one reply


def test_json_file_and_complete_json_with_fences():
    llm = ScriptedLLM(FIXTURES / "judge_verdict.json")
    assert llm.complete_json([{"role": "user", "content": "judge"}], Verdict) == Verdict(score=8, category="git")
    assert llm.requests[0].schema == "Verdict"
    assert "JSON schema" in llm.requests[0].messages[0]["content"]


def test_structured_content_is_sent_as_json_and_repaired_once():
    llm = ScriptedLLM([{"content": {"score": "lots"}}, {"content": {"score": 4, "category": "sql"}}])
    assert llm.complete_json([{"role": "user", "content": "judge"}], Verdict) == Verdict(score=4, category="sql")
    assert "score: Input should be a valid integer" in llm.requests[1].messages[-1]["content"]
    bad = ScriptedLLM([{"content": "nope"}, {"content": "still nope"}])
    with pytest.raises(StructuredOutputError) as caught:
        bad.complete_json([], Verdict)
    assert caught.value.raw == "still nope"


def test_budgets_apply_and_no_reply_is_consumed():
    accounting = Accounting(LimitsConfig(max_cost_per_task=0.01))
    llm = ScriptedLLM([{"content": "a", "cost": 0.02}, {"content": "b"}], accounting)
    llm.complete([], task_id="t")
    with pytest.raises(BudgetExceeded, match="task t cost budget spent"):
        llm.complete([], task_id="t")
    assert (len(llm.requests), llm.remaining) == (1, 1)
    assert llm.complete([], task_id="other").content == "b"


def test_supports_tools_is_configurable():
    assert ScriptedLLM([{"content": "x"}], supports_tools=False).supports_tools is False
    file_says_no = ScriptedLLM([{"content": "x"}])
    file_says_no.supports_tools = False
    with pytest.raises(LLMError, match="no native tool calling"):
        file_says_no.complete([], tools=[{"type": "function"}])


def test_thread_safe_one_reply_per_call():
    llm = ScriptedLLM([{"content": str(i)} for i in range(50)], Accounting(LimitsConfig(max_concurrent_llm_calls=4)))
    seen: list[str] = []
    lock = threading.Lock()

    def call() -> None:
        content = llm.complete([]).content
        with lock:
            seen.append(content)

    threads = [threading.Thread(target=call) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seen, key=int) == [str(i) for i in range(50)]


def test_bad_scripts_are_one_line_config_errors(tmp_path):
    with pytest.raises(LLMConfigError, match=r"no such script"):
        ScriptedLLM(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("- content: hi\n- error: meltdown\n")
    with pytest.raises(LLMConfigError, match=r"bad.yaml: replies.1.error: Input should be") as caught:
        ScriptedLLM(bad)
    assert "\n" not in str(caught.value)
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("- text: hi\n")
    with pytest.raises(LLMConfigError, match=r"replies.0.text: Extra inputs"):
        ScriptedLLM(unknown)


def test_scripted_via_make_llm_and_never_a_default():
    llm = make_llm(ModelConfig(model=f"scripted/{FIXTURES / 'agent_ls.yaml'}"), Accounting(), "agent")
    assert isinstance(llm, ScriptedLLM) and llm.role == "agent"
    models = ModelsConfig()
    assert not any(role.model.startswith("scripted/") for role in (models.agent, models.judge, models.evolver,
                                                                  models.proposer))
