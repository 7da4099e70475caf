"""`adaptive-skill trajectory signals|compress TRAJ.json`: what a saved trajectory shows, without labels.

A trajectory file is the agent's saved trajectory, any object with `messages` (mini-swe-agent's
saved trajectories included), or a JSON list of chat messages; the trajectory kernel reads it.
"""

from __future__ import annotations

import argparse
import json
import sys

from adaptive_skill.commands.common import add_config_args, add_format_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "trajectory", help="signals and compress: what a saved trajectory shows, and its compressed form",
        description="""Read a saved trajectory without labels (docs/observe.md, docs/trajectory.md): signals counts
                    what the agent did; compress prints the short form the judge and the evolver read. A
                    trajectory is the agent's saved file (runs/<id>/cycles/<n>/solve/trajectories/<task>.json),
                    mini-swe-agent's, or a JSON list of chat messages.""",
        epilog="""examples:
  adaptive-skill trajectory signals tests/fixtures/observe/sample_trajectory.json
  adaptive-skill trajectory compress tests/fixtures/observe/sample_trajectory.json --budget 2000 --stats""")
    sub = parser.add_subparsers(dest="trajectory_command", metavar="ACTION", required=True)

    signals = sub.add_parser(
        "signals", help="print the behavioural signals: turns, tools, errors, repeats, interventions",
        description="""The behavioural signals of one trajectory, read without labels: its status, turns and tool
                    calls, errors by kind (with their output), repeated commands, whether and what it
                    submitted, the spiral monitor's interventions, time, tokens and cost.""",
        epilog="""examples:
  adaptive-skill trajectory signals tests/fixtures/observe/sample_trajectory.json
  adaptive-skill trajectory signals tests/fixtures/observe/sample_trajectory.json --format json""")
    signals.add_argument("path", metavar="TRAJ.json", help="a saved trajectory, or a JSON list of chat messages")
    add_format_arg(signals, ("text", "json"), "text (default): a few lines and the errors' output; json: every "
                                              "signal")
    signals.set_defaults(handler=signals_cmd)

    compress = sub.add_parser(
        "compress", help="print the trajectory compressed for the judge and the evolver",
        description="""Print the trajectory in the compressed form the judge and the evolver see: a header
                    of counts, the errors, the last steps and the submission, within a token budget (the
                    less room, the less of each).""",
        epilog="""examples:
  adaptive-skill trajectory compress tests/fixtures/observe/sample_trajectory.json
  adaptive-skill trajectory compress tests/fixtures/observe/sample_trajectory.json --budget 800 --stats""")
    compress.add_argument("path", metavar="TRAJ.json", help="a saved trajectory, or a JSON list of chat messages")
    compress.add_argument("--budget", type=positive_int, metavar="TOKENS",
                          help="token budget (default: judge.compression_budget_tokens from the config)")
    compress.add_argument("--stats", action="store_true",
                          help="also print the token counts (compressed, raw, budget) on stderr")
    add_config_args(compress, "judge.compression_budget_tokens=4000")
    compress.set_defaults(handler=compress_cmd)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {value}")
    return value


def signals_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.observe.signals import extract_signals
    from adaptive_skill.trajectory import load_view

    signals = extract_signals(load_view(args.path)).to_dict()
    if args.format == "json":
        print(json.dumps(signals, indent=2, ensure_ascii=False))
    else:
        print(signals_text(signals), end="")
    return 0


def signals_text(s: dict) -> str:
    """The signals as a person reads them: a few lines, then each error with its output. What the agent or
    its commands wrote is shown with control characters (terminal escapes) replaced."""
    from adaptive_skill.progress import printable_line

    def shown(text: str) -> str:
        return "".join(c if c.isprintable() or c == "\t" else "\N{REPLACEMENT CHARACTER}" for c in text)

    def counts(mapping: dict) -> str:
        return ", ".join(f"{key} {value}" for key, value in mapping.items()) or "none"

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    head = (f"status {s['status'] or 'unknown'}; {plural(s['n_turns'], 'turn')}, "
            f"{plural(s['n_tool_calls'], 'tool call')}, {plural(s['n_errors'], 'error')}, "
            f"{plural(s['n_timeouts'], 'timeout')}")
    lines = [head,
             "submitted: " + (json.dumps(printable_line(s["submit_value"]), ensure_ascii=False)
                              if s["submit_value"] is not None else "yes") if s["submitted"] else "submitted: no",
             f"tools used: {counts(s['tools_used'])}",
             f"errors by kind: {counts(s['errors_by_kind'])}"]
    repeated = [f"`{printable_line(r['command'])}` {r['count']} times (steps {', '.join(map(str, r['steps']))})"
                for r in s["repeated_commands"]]
    lines.append(f"repeated commands: {'; '.join(repeated) or 'none'}")
    events = s["spiral_events"]
    detected = f"; {plural(events['detections'], 'detection')} without one" if events.get("detections") else ""
    if events.get("count"):
        lines.append(f"spiral monitor: {plural(events['count'], 'intervention')} ({counts(events['by_action'])}; "
                     f"strongest {events['strongest_action']}) at steps {', '.join(map(str, events['steps']))}"
                     + detected)
    else:
        lines.append("spiral monitor: no intervention" + detected)
    usage = []
    if s["duration_sec"] is not None:
        usage.append(f"{s['duration_sec']:g} s")
    if s["tokens"]:
        usage.append(", ".join(f"{value} {key.removesuffix('_tokens')}" for key, value in s["tokens"].items())
                     + " tokens")
    if s["cost"] is not None:
        usage.append(f"cost ${s['cost']:.4f}")
    if usage:
        lines.append("; ".join(usage))
    lines.append(f"steps {s['steps_source']}; format {s['format']}"
                 + (f"; {plural(s['exits_unknown'], 'command')} without an exit code" if s["exits_unknown"] else ""))
    for snippet in s["error_snippets"]:
        code = "" if snippet.get("exit_code") is None else f", exit code {snippet['exit_code']}"
        command = (snippet.get("command") or "").splitlines()
        first = f": `{printable_line(command[0])}`" + (" ..." if len(command) > 1 else "") if command else ""
        lines.append("")
        lines.append(f"step {snippet['step']} ({snippet['kind']}{code}){first}")
        lines += [f"    {shown(line)}" for line in snippet.get("lines") or []]
    return "\n".join(lines) + "\n"


def compress_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.observe.compress import compress
    from adaptive_skill.trajectory import load_view

    view = load_view(args.path)
    budget = args.budget or load_config_from_args(args).judge.compression_budget_tokens
    result = compress(view, budget)
    print(result.text, end="" if result.text.endswith("\n") else "\n")
    if args.stats:
        print(f"tokens: {result.tokens} compressed, {result.raw_tokens} raw, budget {result.budget}; "
              f"level {result.level}; {result.errors_shown} of {result.n_errors} errors shown; "
              f"counted with {result.counter}", file=sys.stderr)
    return 0
