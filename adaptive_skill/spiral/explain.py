"""The plain explanation of an intervention, for the person reading a trajectory or `spiral scan`:
which detectors fired, at which steps, on what evidence (the commands, errors, values, settings
and results that repeated), and how that reached the threshold. Written from the detections'
own evidence, one sentence each, strongest first."""

from __future__ import annotations

from typing import Any

from adaptive_skill.spiral.detectors.base import Detection

_MAX = 4  # detections explained; the rest are named


def explain(action: str, detections: list[Detection], risk: float, threshold: float, rung: int | None) -> str:
    if not detections:
        return f"{action}: no detection."
    sentences = [_sentence(d) for d in detections[:_MAX]]
    more = [d.detector for d in detections[_MAX:]]
    if more:
        sentences.append(f"Also {', '.join(more)}.")
    if detections[0].hard:
        tail = f"A hard limit stops the attempt at once ({action})."
    else:
        tail = (f"Together they brought the risk to {risk:.2f} (threshold {threshold:g}), so the monitor took "
                f"rung {rung}: {action}.")
    return " ".join([*sentences, tail])


def _sentence(detection: Detection) -> str:
    e = detection.evidence
    name = detection.detector
    text = _BY_DETECTOR[name](e) if name in _BY_DETECTOR else f"{detection.summary} ({_steps(e.get('steps'))})."
    return f"{name} (score {detection.score:.2f}): {text}"


def _steps(steps: Any) -> str:
    items = [s for s in (steps or []) if isinstance(s, int) and s >= 0]
    if not items:
        return "recent steps"
    if len(items) > 2 and items == list(range(items[0], items[-1] + 1)):
        return f"steps {items[0]}-{items[-1]}"
    shown = ", ".join(str(s) for s in items[:12]) + (" ..." if len(items) > 12 else "")
    return f"step {shown}" if len(items) == 1 else f"steps {shown}"


def _quoted(items: Any, limit: int = 4) -> str:
    shown = [f"`{str(i)[:80]}`" for i in list(items or [])[:limit]]
    return ", ".join(shown) + (" ..." if len(list(items or [])) > limit else "")


def _exact(e: dict) -> str:
    action = str(e.get("action", "")).removeprefix("bash:")
    return f"`{action[:100]}` ran at {_steps(e.get('steps'))} and gave the same output each time."


def _semantic(e: dict) -> str:
    sims = ", ".join(f"{s:.2f}" for s in e.get("similarity", [])[:4])
    return (f"{_steps(e.get('steps'))} said the same thing in other words (cosine {sims}) and brought nothing new; "
            f"the latest: `{str(e.get('intent', '')).splitlines()[-1][:100] if e.get('intent') else ''}`.")


def _result(result: str) -> str:
    """A result's class as words: the failure it says, or a success whose output repeats (numbers aside)."""
    if result.startswith("fail:"):
        return f"`{result.removeprefix('fail:').removeprefix('error: ')[:140]}`"
    return "the same output (numbers aside)" if result.startswith("ok:") else f"`{result[:140]}`"


def _alternation(e: dict) -> str:
    results = " / ".join(_result(r) for r in e.get("results", []) if r)
    tail = f"; the check after each gave the same result every time: {results}" if results else ""
    if e.get("kind") == "file":
        return f"{e.get('file')} went back and forth between the same two versions at {_steps(e.get('steps'))}{tail}."
    if e.get("kind") == "value":
        values = " -> ".join(str(v) for v in e.get("values", []))
        return f"{e.get('name')} was set {values} at {_steps(e.get('steps'))}{tail}."
    return f"{_steps(e.get('steps'))} alternated between {_quoted(e.get('actions'))} with the same results."


def _errors(e: dict) -> str:
    return (f"{_steps(e.get('steps'))} failed in a row with the same error `{str(e.get('error', ''))[:160]}` "
            f"(commands {_quoted(e.get('commands'), 3)}).")


def _stagnation(e: dict) -> str:
    return (f"the failure `{str(e.get('error', ''))[:160]}` came back at {_steps(e.get('steps'))} with other work "
            f"in between.")


def _intent(e: dict) -> str:
    kind = e.get("kind")
    what = {"install": "installs", "search": "look-ups", "poll": "polls"}.get(kind, "tries")
    outcome = {"install": "each failed the same way", "search": "none found anything new",
               "poll": f"{str(e.get('intent', '')).removeprefix('wait:').removeprefix('path:')} never gave a new answer"
               }.get(kind, "")
    return (f"{e.get('count')} {what} at {_steps(e.get('steps'))} in other words ({_quoted(e.get('commands'), 3)}); "
            f"{outcome}.")


def _tweak(e: dict) -> str:
    measures = "; ".join(f"{k.split('#')[0]} {', '.join(f'{v:g}' for v in vs)}"
                         for k, vs in (e.get("measures") or {}).items() if len(set(vs)) > 1)
    return (f"{_quoted(e.get('settings'), 5)} were changed and `{str(e.get('check', ''))[:100]}` re-run at "
            f"{_steps(e.get('steps'))}; its result stayed {_result(str(e.get('result', '')))}"
            f"{f' and did not improve ({measures})' if measures else ''}.")


def _chores(e: dict) -> str:
    return (f"{_steps(e.get('steps'))} were {', '.join(e.get('chores', []))} work the instruction did not ask for "
            f"(latest: {_quoted((e.get('commands') or [])[-3:], 3)}).")


def _drift(e: dict) -> str:
    return (f"the mean relevance of {_steps(e.get('steps'))} to the instruction was {e.get('mean_relevance')}, "
            f"below the threshold.")


def _monologue(e: dict) -> str:
    if e.get("kind") == "self_reference":
        return f"{_steps(e.get('steps'))} planned how to plan (\"{e.get('quote', '')}\")."
    return f"{_steps(e.get('steps'))} talked without running anything."


def _limit(e: dict) -> str:
    return f"spiral.limits.{e.get('limit')} reached ({e.get('value')} >= {e.get('max')})."


_BY_DETECTOR = {"exact_repetition": _exact, "semantic_repetition": _semantic, "alternation": _alternation,
                "repeated_errors": _errors, "stagnation": _stagnation, "intent_repetition": _intent,
                "parameter_tweak": _tweak, "unasked_work": _chores, "goal_drift": _drift, "monologue": _monologue,
                "hard_limit": _limit}
