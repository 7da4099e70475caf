"""`adaptive-skill config check FILE`: validate a config and print it resolved."""

from __future__ import annotations

import argparse

from adaptive_skill.commands.common import add_config_args


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config", help="check: validate a config and print it resolved",
        description="""Work with a YAML config (configs/*.yaml; every key with its default: docs/engine.md,
                    Configuration). check validates one, overrides applied, and prints it resolved.""",
        epilog="""examples:
  adaptive-skill config check configs/cycle.yaml
  adaptive-skill config check configs/cycle.yaml --set gating.max_rounds=10""")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = sub.add_parser(
        "check", help="validate FILE and print the resolved config (secrets redacted)",
        description="""Validate a config file: unknown keys, wrong types and values out of range end in one
                    line and exit code 2. With --set, the overrides are applied first, as every command that
                    reads a config applies them. Prints the resolved config as YAML, every default filled in
                    and secrets (api keys) redacted.""",
        epilog="""examples:
  adaptive-skill config check configs/quickstart.yaml
  adaptive-skill config check configs/cycle.yaml --set gating.max_rounds=10 --set models.agent.temperature=0.2""")
    check.add_argument("file", metavar="FILE", help="the YAML config file to check")
    add_config_args(check, "gating.max_rounds=10", with_file=False)
    check.set_defaults(handler=check_config)


def check_config(args: argparse.Namespace) -> int:
    from adaptive_skill.config import load_config

    config = load_config(args.file, args.overrides)
    print(config.to_yaml(), end="")
    return 0
