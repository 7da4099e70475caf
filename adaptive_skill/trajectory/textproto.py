"""The agent's text protocol, and the markers its observations carry: what the agent writes and
what every reader parses back, in one place.

Text protocol: every reply holds exactly one fenced block, whose language names the tool:
```bash (a command), ```read_skill (a skill name) or ```submit (a one-line summary). The agent
answers with "Observation (<tool>):\\n<output>"; a bash output ends with "[exit code N]" or
"[command timed out and was killed]".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FORMAT_REMINDER = ("Your reply could not be used: {problem}. Reply with exactly one fenced block: ```bash "
                   "(a command), ```read_skill (a skill name) or ```submit (a summary).")

EXIT_MARKER = re.compile(r"\n?\[exit code (-?\d+)\]\s*$")
TIMEOUT_MARKER = re.compile(r"\n?\[command timed out and was killed\]\s*$")
OBSERVATION = re.compile(r"Observation \(([A-Za-z_]+)\):\n?", re.ASCII)
# The same for a model with native tool calls: it is asked for a call, not a fenced block.
NATIVE_FORMAT_REMINDER = ("Your reply could not be used: {problem}. Call exactly one tool: bash (a command), "
                          "read_skill (a skill name) or submit (a summary).")
REMINDER = re.compile(r"^Your reply could not be used: (.*?)\. (?:Reply with exactly one fenced block|Call exactly "
                      r"one tool)", re.DOTALL)

_FENCE = re.compile(r"```([A-Za-z_]*)[ \t]*\n(.*?)```", re.DOTALL)
# Block languages: ours, plain shells, and mini-swe-agent's `mswea_bash_command`.
_LANGUAGES = {"": "bash", "bash": "bash", "sh": "bash", "shell": "bash", "mswea_bash_command": "bash",
              "read_skill": "read_skill", "submit": "submit"}
_TOOLS = tuple(dict.fromkeys(_LANGUAGES.values()))  # bash, read_skill, submit
_SKILL = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # a skill name (skills.NAME_PATTERN), as a grammar may quote it
# What str.strip() removes, as GBNF character ranges: a "visible" character is none of these.
_WHITESPACE = "".join(f"\\u{ord(c):04x}" for c in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2028\u2029\u202f"
                      "\u205f\u3000") + "\\u2000-\\u200a"


TAIL_CHARS = 4  # whitespace the grammar allows after the closing fence
FENCE_CHARS = len("```read_skill\n") + len("\n```")  # the longest fence pair
BASH_LANGUAGES = ("bash", "sh", "shell")  # what a code model writes on a shell block's fence


def reasoning_chars(lines: int, line_units: int) -> int:
    """The longest reasoning of `lines` lines of `line_units` units: a unit is one character, or a
    backtick and the character after it; a line may end with one backtick and ends with a newline."""
    return lines * (2 * line_units + 2)


def text_protocol_grammar(tools: tuple[str, ...] = _TOOLS, *, max_tokens: int | None = None,
                          reasoning_lines: int = 3, line_units: int = 400, body_chars: int = 1500,
                          skills: list[str] | None = None) -> str:
    """A GBNF grammar (llama.cpp) whose every sentence `parse_text` accepts: up to `reasoning_lines`
    lines of reasoning, then exactly one fenced block of one of `tools`, then at most TAIL_CHARS of
    whitespace.

    The reasoning is whole lines, so the block begins where the model ends a line itself, never
    mid-sentence (Qwen2.5-Coder-1.5B explains an error in lines of 250-400 characters; at 200 units a
    line, 5 of 119 probe replies were cut): a bound on characters cut the 1.5B's reasoning mid-word
    and forced a fence there, after which it picked a block at random. Reasoning may hold inline code (a single
    backtick, never two in a row, so no fence can begin inside it): the 1.5B writes "Replace `a` with
    `b`", and a grammar that ended the reasoning at its first backtick turned that into a block.
    A bash block's fence may say bash, sh or shell, as code models write them. With `skills`, a
    read_skill block names one of them (skill names are [a-z0-9-], safe in a grammar literal).

    The tail matters: Qwen's tokenizer spells a closing fence and its line end as "``" + "`\n", so a
    grammar that ends at the third backtick forbids the model's own way of closing and pushes it to
    keep writing inside the block. Bodies hold no backtick (one would begin to close the fence; a
    command substitutes with $(...)); bash and read_skill bodies hold a non-blank character.

    With `max_tokens` (the reply's token limit) the bounds shrink until the longest sentence fits it
    at one token per character (Qwen spells digits one token each): a reply cut at the limit would
    end inside its block and be malformed, which the grammar is there to prevent. Text outside ASCII
    can take more than one token per character; a reply cut anyway is reported as cut."""
    if max_tokens is not None:
        budget = max_tokens - FENCE_CHARS - TAIL_CHARS
        if budget < 32:
            raise ValueError(f"max_tokens {max_tokens} leaves no room for a command under the text protocol")
        # The command keeps its full bound when the budget allows, else half of it; the reasoning the rest.
        room = budget - body_chars - 1 if budget - body_chars - 1 >= budget // 2 else budget // 2
        while line_units > 8 and reasoning_chars(reasoning_lines, line_units) > room:
            line_units = line_units * 4 // 5
        if reasoning_chars(reasoning_lines, line_units) > room:
            reasoning_lines = 1
        body_chars = min(body_chars, budget - reasoning_chars(reasoning_lines, line_units) - 1)
    unknown = [tool for tool in tools if _LANGUAGES.get(tool) != tool]
    if unknown or not tools:
        raise ValueError(f"no text-protocol block for {unknown or 'no tools'}")
    shells = " | ".join(f'"{language}"' for language in BASH_LANGUAGES)
    names = ("(" + " | ".join(f'"{name}"' for name in sorted(skills)) + ")"
             if skills and all(_SKILL.match(name) for name in skills) else f"[A-Za-z0-9_.-]{{1,{min(64, body_chars)}}}")
    blocks = {
        "bash": f'"```" ({shells}) "\\n" blank* visible body{{0,{body_chars}}} "\\n```"',
        "read_skill": f'"```read_skill\\n" {names} "\\n```"',
        "submit": f'"```submit\\n" [^`\\n]{{0,{min(300, body_chars)}}} "\\n```"',
    }
    return "\n".join([
        f"root ::= reasoning block tail{{0,{TAIL_CHARS}}}",
        "tail ::= [ \\t\\n]",
        f'reasoning ::= (line "\\n"){{0,{reasoning_lines}}}',
        f'line ::= unit{{0,{line_units}}} "`"?',
        'unit ::= [^`\\n] | "`" [^`\\n]',
        "block ::= " + " | ".join(f"{tool.replace('_', '-')}-block" for tool in tools),
        *(f"{tool.replace('_', '-')}-block ::= {blocks[tool]}" for tool in tools),
        f"blank ::= [{_WHITESPACE}]",
        f"visible ::= [^{_WHITESPACE}`]",
        "body ::= [^`]",  # one character each, so the bounds count characters; no ``` can form
        "",
    ])


@dataclass(frozen=True)
class Action:
    tool: str
    argument: str  # the command, skill name or answer
    call_id: str | None = None  # set for native tool calls


class FormatProblem(ValueError):
    """The reply cannot be turned into exactly one action."""


def parse_text(content: str | None) -> Action:
    blocks = _FENCE.findall(content or "")
    if not blocks:
        raise FormatProblem("no fenced block in the reply")
    if len(blocks) > 1:
        raise FormatProblem(f"{len(blocks)} fenced blocks in one reply; send exactly one")
    language, body = blocks[0]
    tool = _LANGUAGES.get(language.lower())
    if tool is None:
        raise FormatProblem(f"unknown block type {language!r}")
    body = body.strip("\n")
    if tool != "submit" and not body.strip():
        raise FormatProblem(f"the {tool} block is empty")
    if tool == "bash":
        first, _, rest = body.strip().partition("\n")
        word, _, same_line = first.strip().partition(" ")
        if word in ("submit", "read_skill"):  # the tool named as a command: no program has that name
            # (Qwen2.5-Coder-1.5B wrote its summary as ```bash\nsubmit\nDone ..., 7 of 119 replies)
            argument = "\n".join(part for part in (same_line.strip(), rest.strip()) if part)
            if word == "read_skill" and not argument:
                raise FormatProblem("read_skill needs a skill name")
            return Action(word, argument if word == "read_skill" else " ".join(argument.split()))
        if first.strip().startswith(("[exit code", "[command timed out", "Observation (")):
            raise FormatProblem("the block repeats the observation, not a command; write your next command")
    return Action(tool, body.strip() if tool != "bash" else body)
