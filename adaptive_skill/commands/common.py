"""Arguments shared by several commands."""

from __future__ import annotations

import argparse


def add_config_args(parser: argparse.ArgumentParser, required: bool = False, with_file: bool = True) -> None:
    if with_file:
        parser.add_argument("--config", "-c", required=required, metavar="FILE", help="YAML config file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. --set gating.margin=0.5 (repeatable)")


def load_config_from_args(args: argparse.Namespace):
    from adaptive_skill.config import load_config

    return load_config(args.config, args.overrides)


def selected_tasks(args: argparse.Namespace) -> list:
    """The suite's tasks (or the `--task` ones), after checking `--workers`."""
    from pathlib import Path

    from adaptive_skill.errors import UserError
    from adaptive_skill.tasks import find_task, load_suite

    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    suite = load_suite(Path(args.suite))
    return [find_task(suite, t) for t in args.task] if args.task else suite
