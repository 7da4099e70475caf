"""Hand-made trajectories for the observe tests (no tests here; the name keeps it with them).

`trajectory(specs, protocol)` writes what the agent would have saved: recorded `steps` and the
chat `messages` the model saw, in the native or the text tool protocol, so a test can read the
same run both ways.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from adaptive_skill.agent.protocol import FORMAT_REMINDER

FORMAT_PROBLEM = {"native": "no tool call in the reply", "text": "no fenced block in the reply"}


@dataclass
class S:
    tool: str | None
    argument: str = ""
    output: str = ""
    exit_code: int | None = 0
    timed_out: bool = False
    error: str | None = None


def bash(command: str, output: str = "", exit_code: int | None = 0, timed_out: bool = False) -> S:
    return S("bash", command, output, None if timed_out else exit_code, timed_out)


def malformed() -> S:
    return S(None, exit_code=None)


def trajectory(specs: list[S], protocol: str = "native", *, events: list[dict] | None = None,
               status: str | None = None, instruction: str = "Make the build pass.", **extra) -> dict:
    messages = [{"role": "system", "content": "You are a terminal agent."}, {"role": "user", "content": instruction}]
    steps = []
    submission = None
    for index, spec in enumerate(specs, 1):
        position = len(messages)
        error = spec.error
        if spec.tool is None:
            error = f"format: {FORMAT_PROBLEM[protocol]}"
            reply = {"role": "assistant", "content": "I am not sure what to do."}
            messages += [reply, {"role": "user", "content": FORMAT_REMINDER.format(problem=FORMAT_PROBLEM[protocol])}]
        else:
            observation = _observation(spec)
            if protocol == "native":
                key = {"bash": "command", "read_skill": "name", "submit": "answer"}[spec.tool]
                call = {"id": f"call_{index}", "type": "function",
                        "function": {"name": spec.tool, "arguments": json.dumps({key: spec.argument})}}
                messages += [{"role": "assistant", "content": None, "tool_calls": [call]},
                             {"role": "tool", "tool_call_id": f"call_{index}", "content": observation}]
            else:
                messages += [{"role": "assistant", "content": f"Next step.\n```{spec.tool}\n{spec.argument}\n```"},
                             {"role": "user", "content": f"Observation ({spec.tool}):\n{observation}"}]
        if spec.tool == "submit":
            submission = spec.argument
        steps.append({"index": index, "tool": spec.tool, "argument": spec.argument if spec.tool else "",
                      "output": spec.output if spec.tool == "bash" or spec.tool == "read_skill" and not error
                      else (spec.argument if spec.tool == "submit" else ""),
                      "exit_code": spec.exit_code if spec.tool == "bash" else None,
                      "timed_out": spec.timed_out, "error": error, "duration_sec": 0.5, "llm_duration_sec": 1.0,
                      "prompt_tokens": 100, "completion_tokens": 20, "cost": 0.001, "message_index": position})
    n = len(steps)
    return {"task_id": "t1", "model": "scripted", "instruction": instruction,
            "status": status or ("submitted" if submission is not None else "step_limit"),
            "submission": submission, "started_at": 0.0, "duration_sec": 42.5,
            "usage": {"prompt_tokens": 100 * n, "completion_tokens": 20 * n, "total_tokens": 120 * n},
            "cost": round(0.001 * n, 6), "metadata": {"protocol": protocol}, "events": events or [],
            "steps": steps, "messages": messages, **extra}


def _observation(spec: S) -> str:
    if spec.tool == "bash":
        if spec.timed_out:
            return f"{spec.output}\n[command timed out and was killed]"
        return f"{spec.output}\n[exit code {spec.exit_code}]"
    if spec.tool == "read_skill":
        return f"error: {spec.error}" if spec.error else spec.output
    return "submitted"


HEREDOC = ("cat > fix.py <<'EOF'\n" + "\n".join(f"value_{i} = compute({i})" for i in range(40))
           + "\nraise SystemExit(check())\nEOF\npython3 fix.py")
TRACEBACK = ('Traceback (most recent call last):\n  File "/app/fix.py", line 1, in <module>\n'
             "    value_0 = compute(0)\nNameError: name 'compute' is not defined\n")
MAKE_ERROR = ("gcc -Iinclude -c src/main.c -o build/main.o\n"
              "src/main.c:3:10: fatal error: calc.h: No such file or directory\n"
              "compilation terminated.\nmake: *** [Makefile:9: build/main.o] Error 1\n")
EVENTS = [
    {"step": 9, "detector": "repetition", "score": 0.81, "action": "nudge", "evidence": {"command": "make test"}},
    {"step": 10, "detector": "repetition", "score": 0.93, "action": "restart", "evidence": {"command": "make test"}},
    {"step": 10, "detector": "error_cycle", "score": 0.7, "action": "nudge", "evidence": {}},
]


def sample_specs() -> list[S]:
    """Eleven steps with one of everything: a plain command, a heredoc that fails, a traceback
    behind exit 0, a build error, a timeout, an unknown skill, a malformed reply, a loop, a submit."""
    return [
        bash("ls /app", "Makefile\ninclude\nsrc\n"),
        bash(HEREDOC, TRACEBACK, 1),
        bash("python3 fix.py || true", TRACEBACK, 0),
        bash("make", MAKE_ERROR, 2),
        bash("sleep 500", "", timed_out=True),
        S("read_skill", "build-c", exit_code=None, error="no skill named 'build-c'"),
        malformed(),
        bash("make test", "ok 1\nok 2\n"),
        bash("make  test", "ok 1\nok 2\n"),
        bash("make test ", "ok 1\nok 2\nall tests passed\n"),
        S("submit", "Fixed the include path in the Makefile.", exit_code=None),
    ]
