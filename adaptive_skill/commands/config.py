"""`adaptive-skill config check FILE`: validate a config and print it resolved."""

from __future__ import annotations

import argparse

from adaptive_skill.commands.common import add_config_args


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="check: validate a config and print it resolved")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate FILE and print the resolved config (secrets redacted)")
    check.add_argument("file", metavar="FILE", help="the YAML config file to check")
    add_config_args(check, "gating.max_rounds=10", with_file=False)
    check.set_defaults(handler=check_config)


def check_config(args: argparse.Namespace) -> int:
    from adaptive_skill.config import load_config

    config = load_config(args.file, args.overrides)
    print(config.to_yaml(), end="")
    return 0
