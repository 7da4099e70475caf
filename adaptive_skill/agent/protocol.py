"""How the agent talks to a model: native tool calls, or a text protocol for models without them.
The text protocol's grammar (parse_text) and its reminder live with the trajectory kernel, which
reads it back from saved trajectories."""

from __future__ import annotations

import json

from adaptive_skill.llm.base import LLMResponse
from adaptive_skill.trajectory.textproto import (
    FORMAT_REMINDER,
    NATIVE_FORMAT_REMINDER,
    Action,
    FormatProblem,
    parse_text,
    text_protocol_grammar,
)

__all__ = ["FORMAT_REMINDER", "NATIVE_FORMAT_REMINDER", "TEXT_PROTOCOL_DEMO", "TEXT_PROTOCOL_DEMO_VERSION",
           "TEXT_PROTOCOL_HELP", "TOOL_NAMES", "TOOL_SPECS", "Action", "FormatProblem", "tool_specs", "with_demo",
           "parse_native", "parse_text", "text_protocol_grammar"]

TOOL_NAMES = ("bash", "read_skill", "submit")

TOOL_SPECS = [
    {"type": "function", "function": {
        "name": "bash",
        "description": "Run one shell command in the task's terminal. The shell persists between calls "
                       "(cd and exported variables stay). Long output is cut in the middle.",
        "parameters": {"type": "object", "properties": {"command": {"type": "string"}},
                       "required": ["command"]}}},
    {"type": "function", "function": {
        "name": "read_skill",
        "description": "Read the full instructions of one skill listed in the system prompt.",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
    {"type": "function", "function": {
        "name": "submit",
        "description": "Finish the task. Call it once the work is done and checked.",
        "parameters": {"type": "object", "properties": {"answer": {"type": "string"}},
                       "required": ["answer"]}}},
]

def tool_specs(*, read_skill: bool = True, skills: list[str] | None = None) -> list[dict]:
    """The agent's tools. With `skills`, read_skill takes only their names (an enum in the schema,
    which an embedded model's grammar follows): Qwen2.5-Coder-1.5B asked for skills that do not exist,
    five times in one attempt, when any name was allowed."""
    specs = []
    for spec in TOOL_SPECS:
        name = spec["function"]["name"]
        if name == "read_skill" and not read_skill:
            continue
        if name == "read_skill" and skills:
            spec = json.loads(json.dumps(spec))
            spec["function"]["parameters"]["properties"]["name"]["enum"] = sorted(skills)
        specs.append(spec)
    return specs


# No placeholder lines: Qwen2.5-Coder-1.5B ran `<one shell command>` and `<the name of a skill listed
# above>` as commands, copied from an earlier help that showed each block with such a line (8 of 100
# probe replies on holdout tasks, docs/llm.md).
TEXT_PROTOCOL_HELP = """Reply with one short sentence of reasoning, then exactly ONE fenced block of one of three kinds:
- a ```bash block: one shell command to run;
- a ```read_skill block: the exact name of one skill listed above;
- a ```submit block: one line on what you did, once the task is done and checked."""


# A worked example of the text protocol, shown to the model between the system prompt and the task
# (never saved in the trajectory, whose messages are what happened). Measured with
# Qwen2.5-Coder-0.5B (docs/llm.md, "The protocol's worked example"): without it, the model's reply
# after an observation mostly copied that observation into a new ```bash block; with it, it went on
# with a command, a check or a submit. The two tasks are unlike the shipped suites' (no redirect,
# count, archive or permission trap is taught here): one writes and checks a file and submits, one
# reads an error and changes its approach.
TEXT_PROTOCOL_DEMO_VERSION = 1
TEXT_PROTOCOL_DEMO: tuple[dict[str, str], ...] = (
    {"role": "user", "content": "Write the kernel release of this machine to /tmp/kernel.txt."},
    {"role": "assistant", "content": "Print the release and redirect it into the file.\n"
                                     "```bash\nuname -r > /tmp/kernel.txt\n```"},
    {"role": "user", "content": "Observation (bash):\n\n[exit code 0]"},
    {"role": "assistant", "content": "Check what the file holds.\n```bash\ncat /tmp/kernel.txt\n```"},
    {"role": "user", "content": "Observation (bash):\n6.1.0-18-amd64\n[exit code 0]"},
    {"role": "assistant", "content": "The file holds the release, so the task is done.\n```submit\n"
                                     "Wrote the kernel release to /tmp/kernel.txt.\n```"},
    {"role": "user", "content": "Observation (submit):\nsubmitted\n\nNew task. Print the version of Python."},
    {"role": "assistant", "content": "Ask python for its version.\n```bash\npython --version\n```"},
    {"role": "user", "content": "Observation (bash):\nbash: python: command not found\n[exit code 127]"},
    {"role": "assistant", "content": "The error says python is not installed, so I try python3 instead.\n"
                                     "```bash\npython3 --version\n```"},
    {"role": "user", "content": "Observation (bash):\nPython 3.11.2\n[exit code 0]"},
    {"role": "assistant", "content": "That printed the version.\n```submit\nPython 3.11.2\n```"},
)
_DEMO_HANDOVER = "Observation (submit):\nsubmitted\n\nNew task. "


def with_demo(context: list[dict]) -> list[dict]:
    """What a text-protocol model is sent: the system prompt, the worked example, then the attempt's
    own messages, the task joined to the example's last observation so turns keep alternating."""
    if len(context) < 2 or context[0].get("role") != "system" or context[1].get("role") != "user":
        return list(context)
    task = {**context[1], "content": _DEMO_HANDOVER + str(context[1].get("content") or "")}
    return [context[0], *TEXT_PROTOCOL_DEMO, task, *context[2:]]


def parse_native(response: LLMResponse) -> Action:
    if not response.tool_calls:
        raise FormatProblem("no tool call in the reply")
    if len(response.tool_calls) > 1:
        raise FormatProblem(f"{len(response.tool_calls)} tool calls in one reply; make one at a time")
    call = response.tool_calls[0]
    if call.name not in TOOL_NAMES:
        raise FormatProblem(f"unknown tool {call.name!r} (tools: {', '.join(TOOL_NAMES)})")
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        raise FormatProblem(f"the arguments of {call.name} are not valid JSON") from None
    key = {"bash": "command", "read_skill": "name", "submit": "answer"}[call.name]
    value = arguments.get(key) if isinstance(arguments, dict) else None
    if not isinstance(value, str) or (call.name != "submit" and not value.strip()):
        raise FormatProblem(f"{call.name} needs a string argument {key!r}")
    return Action(call.name, value, call.id)
