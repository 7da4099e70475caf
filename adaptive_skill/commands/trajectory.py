"""`adaptive-skill trajectory signals|compress TRAJ.json`: what a saved trajectory shows, without labels.

A trajectory file is the agent's saved trajectory, any object with `messages` (mini-swe-agent's
saved trajectories included), or a JSON list of chat messages; the trajectory kernel reads it.
"""

from __future__ import annotations

import argparse
import json
import sys

from adaptive_skill.commands.common import add_config_args


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("trajectory", help="signals and compress: what a saved trajectory shows, "
                                                      "and its compressed form")
    sub = parser.add_subparsers(dest="trajectory_command", metavar="ACTION", required=True)

    signals = sub.add_parser("signals", help="print the behavioural signals as JSON")
    signals.add_argument("path", metavar="TRAJ.json", help="a saved trajectory, or a JSON list of chat messages")
    signals.set_defaults(handler=signals_cmd)

    compress = sub.add_parser("compress", help="print the trajectory compressed for the judge and the evolver")
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

    print(json.dumps(extract_signals(load_view(args.path)).to_dict(), indent=2, ensure_ascii=False))
    return 0


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
