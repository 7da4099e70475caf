"""Rule mode of the scripted model: replies chosen by what the request shows, reusable, with a default."""

import pytest

from adaptive_skill.llm import LLMConfigError, LLMError
from adaptive_skill.llm.scripted import ScriptedLLM


def ask(llm, text):
    return llm.complete([{"role": "user", "content": text}]).content


def test_first_matching_rule_wins_and_rules_are_reused():
    llm = ScriptedLLM([{"when": "skill-bad", "content": "bad"}, {"when": "skill-good", "content": "good"},
                       {"content": "plain"}])
    assert [ask(llm, t) for t in ("has skill-good", "skill-good and skill-bad", "nothing", "skill-good")] == [
        "good", "bad", "plain", "good"]
    assert len(llm.requests) == 4


def test_rules_see_tool_call_arguments():
    llm = ScriptedLLM([{"when": "rm -rf", "content": "saw it"}, {"content": "no"}])
    messages = [{"role": "assistant", "content": None,
                 "tool_calls": [{"id": "1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "rm -rf x"}'}}]},
                {"role": "tool", "tool_call_id": "1", "content": "ok"}]
    assert llm.complete(messages).content == "saw it"


def test_no_match_without_default_is_an_error():
    llm = ScriptedLLM([{"when": "x", "content": "1"}])
    with pytest.raises(LLMError, match="no rule"):
        ask(llm, "y")


def test_bad_regex_is_rejected_at_load(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("- when: '('\n  content: x\n")
    with pytest.raises(LLMConfigError, match="not a valid regex"):
        ScriptedLLM(path)


def test_json_with_raw_newlines_in_strings_is_accepted():
    from pydantic import BaseModel

    from adaptive_skill.llm.structured import parse_json

    class Reply(BaseModel):
        title: str

    assert parse_json('{"title": "two\nlines"}', Reply).title == "two\nlines"
