"""JSON parsing and the schema instruction, shared by every model."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from adaptive_skill.llm.structured import parse_json, with_instruction


class Item(BaseModel):
    name: str
    count: int
    tags: list[str] = []


items = st.builds(Item, name=st.text(max_size=30), count=st.integers(-10**6, 10**6),
                  tags=st.lists(st.text(max_size=10), max_size=3))
tricky = st.builds(Item, name=st.sampled_from(["```", "}{", "a ``` b", "{``}"]), count=st.integers(0, 9))
wrappers = st.sampled_from(["{}", "```json\n{}\n```", "```\n{}\n```", "Sure! Here it is:\n```json\n{}\n```\nDone.",
                            "Result: {} -- as requested", "  \n{}\n  "])


@given(items | tricky, wrappers)
def test_replies_parse_back_whatever_the_wrapping(item, wrapper):
    text = wrapper.replace("{}", item.model_dump_json(), 1)
    assert parse_json(text, Item) == item


@pytest.mark.parametrize("text", ["", "   ", "no json here", '{"name": "x"}', '```json\n{"name": 1, "count": 2}\n```'])
def test_invalid_replies_raise_value_errors(text):
    with pytest.raises(ValueError):
        parse_json(text, Item)


def test_schema_errors_are_not_masked_by_the_prose_fallback():
    with pytest.raises(ValidationError) as caught:
        parse_json('{"name": "x", "count": "many"}', Item)
    assert caught.value.errors()[0]["loc"] == ("count",)


def test_instruction_merges_into_the_first_system_message():
    messages = [{"role": "system", "content": "You judge."}, {"role": "user", "content": "go"}]
    merged = with_instruction(messages, Item)
    assert len(merged) == 2 and merged[1] == messages[1]
    assert merged[0]["content"].startswith("You judge.\n\nReply with one JSON object")
    assert json.dumps(Item.model_json_schema(), separators=(",", ":")) in merged[0]["content"]
    assert messages[0]["content"] == "You judge."  # the caller's list is not modified


def test_instruction_adds_a_system_message_when_there_is_none():
    merged = with_instruction([{"role": "user", "content": "go"}], Item)
    assert [m["role"] for m in merged] == ["system", "user"]
