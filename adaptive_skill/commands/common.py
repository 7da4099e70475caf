"""Arguments shared by several commands."""

from __future__ import annotations

import argparse


def add_config_args(parser: argparse.ArgumentParser, required: bool = False, with_file: bool = True) -> None:
    if with_file:
        parser.add_argument("--config", "-c", required=required, metavar="FILE", help="YAML config file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. --set gating.max_rounds=10 (repeatable)")


def add_run_arg(parser: argparse.ArgumentParser) -> None:
    """RUN, the run directory a command reads (args.run)."""
    parser.add_argument("run", metavar="RUN", help="the run directory, e.g. runs/20250101-220000-ab12cd")


def load_config_from_args(args: argparse.Namespace):
    from adaptive_skill.config import load_config

    return load_config(args.config, args.overrides)


# Exit code of list/validate/run when the suite loaded only in part: some tasks were refused (each
# named on stderr) and the others ran. 2 stays "nothing could be loaded" (a UserError).
REFUSED_EXIT = 3


def load_suite_reporting(path) -> object:
    """scan_suite, with each refused task and each warning printed as one line on stderr."""
    import sys
    from pathlib import Path

    from adaptive_skill.tasks import scan_suite

    suite = scan_suite(Path(path))
    for refused in suite.refused:
        print(f"error: {refused.line()}", file=sys.stderr)
    for warning in suite.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return suite


def selected_tasks(args: argparse.Namespace, timeout_multiplier: float = 1.0) -> tuple[list, list]:
    """(tasks, refused): the suite's loadable tasks (or the `--task` ones), after checking `--workers`;
    timeouts scaled by `timeout_multiplier`. Asking by --task for a refused task is an error."""
    from adaptive_skill.errors import UserError
    from adaptive_skill.tasks import find_task, scale_timeouts

    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    suite = load_suite_reporting(args.suite)
    refused = {r.id: r for r in suite.refused}
    if args.task:
        for task_id in args.task:
            if task_id in refused:
                raise UserError(refused[task_id].line())
        tasks = [find_task(suite.tasks, t) for t in args.task]
        return [scale_timeouts(t, timeout_multiplier) for t in tasks], []
    return [scale_timeouts(t, timeout_multiplier) for t in suite.tasks], suite.refused
