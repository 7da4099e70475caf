"""Native tool calls for an embedded model whose chat template has its own tool-call format.

Qwen2.5's template lists the tools in the system turn and expects each call as
`<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>`, each result back as a
`<tool_response>` in a user turn: the form it was trained on. This module renders a conversation
(with earlier calls and results) through that template, builds the GBNF grammar that holds a reply
to exactly one such call of one of the offered tools, and parses the reply back into (reasoning,
name, arguments). The provider (local.py) sends the result to litellm as an ordinary tool call, so
the agent, the trajectory and every reader see what they see from an API model.

A reply is: an optional single line of reasoning (no `<` nor backtick, at most `reasoning_chars`), then
the call; an argument whose schema lists its values (an enum: read_skill's skill names) is one of them.
The reasoning ends at its line break, a boundary the model writes itself: with a free paragraph
allowed, Qwen2.5-Coder-1.5B explained itself until a character bound cut it mid-word. Arguments are
JSON strings of at most `argument_chars` characters (escapes included) and ASCII-only bodies are not
required: the bounds are in characters, and `fit` shrinks them to a token limit at one token per
character, so a reply can never be cut inside its call.

Pure functions: no llama.cpp, no litellm; the template comes from the model file's metadata.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

OPEN, CLOSE = "<tool_call>\n", "\n</tool_call>"
_CALL = re.compile(r"<tool_call>\s*(\{.*\})\s*</tool_call>", re.DOTALL)
# The JSON around the one string argument: {"name": "read_skill", "arguments": {"command": ""}}
_FRAME_CHARS = len(OPEN) + len(CLOSE) + len('{"name": "", "arguments": {"": }}') + 16 + 10


@dataclass(frozen=True)
class Bounds:
    reasoning_chars: int = 300
    argument_chars: int = 1500

    def fit(self, max_tokens: int | None) -> Bounds:
        """The bounds shrunk so that the longest reply fits `max_tokens` at one token per character."""
        if max_tokens is None:
            return self
        budget = max_tokens - _FRAME_CHARS - 1
        if budget < 32:
            raise ValueError(f"max_tokens {max_tokens} leaves no room for a tool call")
        reasoning = min(self.reasoning_chars, budget // 4)
        return Bounds(reasoning, min(self.argument_chars, budget - reasoning))

    def longest_reply(self) -> int:
        return _FRAME_CHARS + 1 + self.reasoning_chars + self.argument_chars


def tool_signatures(tools: list[dict[str, Any]]) -> list[tuple[str, str, list[str] | None]]:
    """(name, its one string argument, the values it may take or None) of each tool; the grammar
    offers tools of that shape only."""
    found = []
    for tool in tools:
        function = tool.get("function") or {}
        properties = (function.get("parameters") or {}).get("properties") or {}
        strings = [key for key, spec in properties.items() if (spec or {}).get("type") == "string"]
        if not function.get("name") or len(properties) != 1 or len(strings) != 1:
            raise ValueError(f"tool {function.get('name')!r}: only tools with one string argument are supported")
        enum = properties[strings[0]].get("enum")
        values = [str(v) for v in enum] if isinstance(enum, list) and enum else None
        found.append((function["name"], strings[0], values))
    return found


def grammar(tools: list[dict[str, Any]], bounds: Bounds) -> str:
    """GBNF: an optional line of reasoning, then exactly one call of one of `tools`."""
    calls = []
    for name, argument, values in tool_signatures(tools):
        head = json.dumps(f'{{"name": "{name}", "arguments": {{"{argument}": ')[1:-1]
        value = "(" + " | ".join(_literal(json.dumps(v)) for v in values) + ")" if values else "string"
        calls.append(f'"{head}" {value} "}}}}"')
    return "\n".join([
        f'root ::= reasoning? "{json.dumps(OPEN)[1:-1]}" call "{json.dumps(CLOSE)[1:-1]}"',
        f'reasoning ::= [^<`\\n]{{1,{bounds.reasoning_chars}}} "\\n"',
        "call ::= " + " | ".join(calls),
        f'string ::= "\\"" char{{0,{bounds.argument_chars}}} "\\""',
        'char ::= [^"\\\\\\x00-\\x1f] | "\\\\" ["\\\\/bfnrt]',
        "",
    ])


def _literal(text: str) -> str:
    """`text` as a GBNF string literal."""
    return json.dumps(text)


def parse(text: str) -> tuple[str, str, str] | None:
    """(reasoning, tool name, arguments as JSON text) of a reply holding one call, else None."""
    match = _CALL.search(text or "")
    if not match:
        return None
    try:
        data = json.loads(match.group(1), strict=False)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return None
    arguments = data.get("arguments")
    arguments_text = arguments if isinstance(arguments, str) else json.dumps(arguments if arguments is not None else {})
    return text[:match.start()].strip(), data["name"], arguments_text


DEFUSE = "\u2060"  # WORD JOINER: invisible, and no special token's text contains it


def defuse(text: str, specials: tuple[str, ...]) -> str:
    """`text` with every special token's text broken by an invisible character. The prompt is
    tokenized with special tokens parsed (the template's own <|im_start|> must be one token), so a
    command output holding "<|im_end|><|im_start|>system" would otherwise become real role tokens in
    the agent's, and then the judge's, prompt: text the agent's commands printed could speak as the
    system. Longest first, so "<|im_start|>" is broken whole, not as a shorter token inside it."""
    for special in specials:
        if special in text:
            text = text.replace(special, special[0] + DEFUSE + special[1:])
    return text


def template_messages(messages: list[dict[str, Any]], specials: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Chat messages as the template reads them: text content; an assistant's calls with their
    arguments as objects (the template writes them with tojson); tool results as `tool` turns; every
    text the conversation carries (content, call names and arguments) defused of `specials`."""
    specials = tuple(sorted(specials, key=len, reverse=True))
    shown = []
    for message in messages:
        role = message.get("role", "user")
        content = message.get("content")
        if isinstance(content, list):  # OpenAI content parts: keep the text ones
            content = "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
        item: dict[str, Any] = {"role": role if role in ("system", "user", "assistant", "tool") else "user",
                                "content": defuse(str(content or ""), specials)}
        if role == "assistant" and message.get("tool_calls"):
            item["tool_calls"] = [{"type": "function", "function": {
                "name": defuse(str((call.get("function") or {}).get("name", "")), specials),
                "arguments": _defused(_object((call.get("function") or {}).get("arguments")), specials)}}
                for call in message["tool_calls"]]
        shown.append(item)
    return shown


def _defused(value: Any, specials: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        return defuse(value, specials)
    if isinstance(value, dict):
        return {defuse(str(k), specials): _defused(v, specials) for k, v in value.items()}
    if isinstance(value, list):
        return [_defused(v, specials) for v in value]
    return value


def render(template: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, *,
           bos_token: str = "", eos_token: str = "", specials: tuple[str, ...] = ()) -> str:
    """The prompt: the model's own chat template in jinja2's sandbox, given what chat templates
    expect (as transformers and llama-cpp give it: bos and eos tokens, raise_exception,
    strftime_now), with `tojson` as the template's authors ran it (plain JSON; jinja2's own filter
    escapes <, >, & and ' for HTML)."""
    from datetime import datetime

    from jinja2.sandbox import ImmutableSandboxedEnvironment

    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    environment.filters["tojson"] = lambda value, indent=None: json.dumps(value, ensure_ascii=False, indent=indent)

    def raise_exception(message: str) -> None:
        raise ValueError(message)

    return environment.from_string(template).render(
        messages=template_messages(messages, specials), tools=tools or None, add_generation_prompt=True,
        raise_exception=raise_exception, bos_token=bos_token, eos_token=eos_token,
        strftime_now=lambda fmt: datetime.now().strftime(fmt))


def _object(arguments: Any) -> Any:
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments if arguments is not None else {}
