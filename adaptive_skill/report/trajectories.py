"""What the trajectory viewer shows, as plain data embedded in the page: each attempt's messages,
with the command, the full output and the monitor's interventions attached to each step.

All of it is untrusted text (commands and outputs an LLM produced); the page renders it with
textContent only, and `embed_json` makes sure it cannot close the script element holding it."""

from __future__ import annotations

import json
from typing import Any

from adaptive_skill.report.attempts import Attempt

TEXT_CAP = 50_000  # characters per message or output; a report of a long run must still open


def payload(attempts: list[Attempt]) -> dict[str, dict[str, Any]]:
    """attempt id -> the viewer's data, for every attempt that left a trajectory."""
    return {a.id: view(a) for a in attempts if a.load()}


def view(attempt: Attempt) -> dict[str, Any]:
    data = attempt.load()
    steps = {s.get("message_index"): s for s in data.get("steps") or [] if isinstance(s, dict)}
    events: dict[Any, list[dict[str, Any]]] = {}
    for event in data.get("events") or []:
        if isinstance(event, dict):
            evidence = event.get("evidence") if isinstance(event.get("evidence"), dict) else {}
            events.setdefault(event.get("step"), []).append(
                {"detector": str(event.get("detector", "")), "action": str(event.get("action", "")),
                 "summary": _cap(str(evidence.get("summary", "")))})
    messages = []
    raw = data.get("messages") or []
    for index, message in enumerate(raw):
        if not isinstance(message, dict):
            continue
        item: dict[str, Any] = {"role": str(message.get("role", "")), "content": _cap(_text(message.get("content")))}
        calls = [_call(c) for c in message.get("tool_calls") or [] if isinstance(c, dict)]
        if calls:
            item["calls"] = calls
        step = steps.get(index)
        if step is not None:
            item["step"] = _step(step, raw[index + 1] if index + 1 < len(raw) else None)
            item["events"] = events.get(step.get("index"), [])
        messages.append(item)
    usage = data.get("usage") or {}
    return {"id": attempt.id, "task": attempt.task, "cycle": attempt.cycle, "phase": attempt.phase,
            "workspace": attempt.workspace, "status": str(data.get("status", "")),
            "passed": attempt.passed, "score": attempt.score, "failure_mode": attempt.failure_mode,
            "tokens": usage.get("total_tokens"), "cost": data.get("cost"), "model": str(data.get("model", "")),
            "file": str(attempt.trajectory), "messages": messages}


def embed_json(data: Any) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' can end the element or
    start markup, and the line separators JavaScript once rejected are escaped too."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                       ("\u2029", "\\u2029")):
        text = text.replace(char, code)
    return text


def _step(step: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    output = str(step.get("output") or "")
    seen = _text(result.get("content")) if isinstance(result, dict) and result.get("role") == "tool" else ""
    return {"index": step.get("index"), "tool": step.get("tool"), "exit_code": step.get("exit_code"),
            "timed_out": bool(step.get("timed_out")), "error": step.get("error"),
            "seconds": step.get("duration_sec"),
            # the full output only where the model saw less of it
            "full_output": _cap(output) if output and output.strip() not in seen else None}


def _call(call: dict[str, Any]) -> dict[str, str]:
    function = call.get("function") if isinstance(call.get("function"), dict) else call
    arguments = function.get("arguments", "")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            pass
    if isinstance(arguments, dict) and len(arguments) == 1:
        arguments = next(iter(arguments.values()))  # bash's command, submit's answer: show it bare
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False, indent=1)
    return {"name": str(function.get("name", "")), "arguments": _cap(text)}


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return json.dumps(content, ensure_ascii=False)


def _cap(text: str) -> str:
    if len(text) <= TEXT_CAP:
        return text
    return f"{text[:TEXT_CAP]}\n… [{len(text) - TEXT_CAP} more characters in the trajectory file]"
