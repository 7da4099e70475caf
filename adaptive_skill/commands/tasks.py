"""`adaptive-skill tasks list|validate --suite DIR`: inspect a suite and check that every task is sound."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_format_arg, add_quiet_arg, add_suite_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tasks", help="list and validate task suites",
        description="""Inspect a suite of tasks (a directory with one task per subdirectory, docs/tasks.md):
                    list shows its tasks and train/holdout split, validate checks that every task is sound.""",
        epilog="""examples:
  adaptive-skill tasks list --suite benchmarks/terminal-easy
  adaptive-skill tasks validate --suite benchmarks/terminal-easy --task count-log-lines""")
    sub = parser.add_subparsers(dest="tasks_command", metavar="ACTION", required=True)

    listing = sub.add_parser(
        "list", help="list a suite's tasks and its train/holdout split; with --run, also the "
                     "tasks the run proposed and where each task came from",
        description="""List a suite's tasks (category, difficulty, layout) and the train/holdout split a run
                    with these settings makes. With --run, the run's suite and split, and also the tasks the
                    run proposed, admitted or rejected. Tasks that could not be loaded are named on stderr
                    and listed as refused (exit code 3).""",
        epilog="""examples:
  adaptive-skill tasks list --suite benchmarks/terminal-families --split-by-family --families
  adaptive-skill tasks list --run runs/20250101-220000-ab12cd --format json""")
    add_suite_arg(listing, "the suite directory (default with --run: the run's)", required=False,
                  old_positional=True)
    listing.add_argument("--run", metavar="DIR", help="a run directory: its split (holdout_ratio, seed) and its "
                                                      "proposed tasks, admitted or rejected")
    listing.add_argument("--holdout-ratio", type=float, default=None, metavar="X", help="default 0.2, or the run's")
    listing.add_argument("--seed", type=int, default=None, metavar="N", help="default 0, or the run's")
    listing.add_argument("--split-by-family", action="store_true", default=None,
                         help="keep each family of the suite's families.toml on one side (default: the run's "
                              "split_by_family, else off)")
    listing.add_argument("--holdout-families", type=int, default=None, metavar="N",
                         help="hold out N whole families and split each other family inside itself (default: "
                              "the run's holdout_families, else 0)")
    listing.add_argument("--families", action="store_true", help="show each task's family, and for a holdout task "
                                                                 "the train tasks of its family (its twins)")
    add_format_arg(listing, ("text", "json"), "text (default): a table; json: one object per task, refused "
                                              "tasks included", json_flag=True)
    listing.set_defaults(handler=list_cmd)

    validate = sub.add_parser(
        "validate", help="run oracle and nop on every task: a sound task passes "
                         "with oracle and fails with nop",
        description="""Check that a suite's tasks are sound: each task's image is built, then the oracle (its
                    reference solution) and nop (doing nothing) run on it, verified by its tests. A sound
                    task passes with oracle and fails with nop. Exit code 1 when a task is unsound, 3 when
                    all are sound but some could not be loaded.""",
        epilog="""examples:
  adaptive-skill tasks validate --suite benchmarks/terminal-easy --workers 2
  adaptive-skill tasks validate --suite benchmarks/terminal-easy --task count-log-lines --format json""")
    add_suite_arg(validate, "the suite directory (one task per subdirectory)", old_positional=True)
    validate.add_argument("--task", action="append", default=[], metavar="ID", help="only these tasks (repeatable)")
    validate.add_argument("--workers", type=int, default=2, metavar="N", help="attempts in parallel (default 2)")
    add_format_arg(validate, ("text", "json"), "text (default): a table; json: the report", json_flag=True)
    add_quiet_arg(validate)
    add_config_args(validate, "sandbox.timeout_multiplier=2")
    validate.set_defaults(handler=validate_cmd)


def list_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import REFUSED_EXIT, load_suite_reporting
    from adaptive_skill.errors import UserError
    from adaptive_skill.tasks import holdout_twins, split_suite

    run = _run_settings(args.run) if args.run else {}
    suite_path = args.suite or run.get("suite")
    if suite_path is None:
        raise UserError("tasks list: give --suite DIR, or --run DIR (whose config names its suite)"
                        if not args.run else f"{args.run}/config.yaml: no paths.suite; give --suite DIR")
    ratio = args.holdout_ratio if args.holdout_ratio is not None else run.get("holdout_ratio", 0.2)
    seed = args.seed if args.seed is not None else run.get("seed", 0)
    if not 0 <= ratio < 1:
        raise UserError("--holdout-ratio must be in [0, 1)")
    by_family = args.split_by_family if args.split_by_family is not None else run.get("split_by_family", False)
    whole = args.holdout_families if args.holdout_families is not None else run.get("holdout_families", 0)
    suite = load_suite_reporting(suite_path)
    tasks = suite.tasks
    try:
        train, holdout = split_suite(tasks, ratio, seed, families=by_family, whole_families=whole)
    except ValueError as exc:
        raise UserError(f"{suite_path}: {exc}") from None
    held = {t.id for t in holdout}
    twins = holdout_twins(train, holdout)[0]
    origin = {"source": "suite", "cycle": None, "status": None, "reason": None} if args.run else {}
    rows = [{"id": t.id, "category": t.category, "difficulty": t.difficulty, "layout": t.layout,
             "split": "holdout" if t.id in held else "train", **origin,
             **({"family": t.family, "twin_of": twins.get(t.id, [])} if args.families else {})} for t in tasks]
    proposals = run.get("proposals", [])
    proposed = [_proposed_row(p) for p in proposals]
    code = REFUSED_EXIT if suite.refused else 0
    if args.format == "json":
        # Refused tasks are listed too, with split "refused" and their reason, in id order.
        rows += [{"id": r.id, "category": None, "difficulty": None, "layout": None, "split": "refused", **origin,
                  "file": r.file, "reason": r.reason} for r in suite.refused]
        listed = sorted(rows + proposed, key=lambda row: row["id"])
        if args.families:  # refused and proposed tasks are in no family
            listed = [{**row, "family": row.get("family"), "twin_of": row.get("twin_of", [])} for row in listed]
        print(json.dumps(listed, indent=2))
        return code
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from adaptive_skill.report.markdown import plain

    title = f"{len(tasks)} tasks, {len(held)} held out (seed {seed}{', by family' if by_family else ''})"
    if args.families:
        title += (f"; {len({t.family for t in tasks if t.family})} families, {len(twins)} holdout task(s) "
                  "with a twin in the train pool")
    if args.run:
        admitted = sum(row["split"] == "train" for row in proposed)
        title += f"; run {Path(args.run).name} proposed {len(proposed)}, {admitted} in the train pool"
    table = Table(title=title)
    family_columns = ["family", "twin of"] if args.families else []
    for column in ("id", "category", "difficulty", "layout", "split", *(["source"] if args.run else []),
                   *family_columns):
        table.add_column(column)
    for row in rows:
        table.add_row(*(escape(str(row[key])) for key in ("id", "category", "difficulty", "layout", "split")),
                      *(["suite"] if args.run else []),
                      *([escape(row["family"] or ""), escape(", ".join(row["twin_of"]))] if args.families else []))
    for refused in suite.refused:
        table.add_row(escape(refused.id), "", "", "", "[red]refused[/]", *(["suite"] if args.run else []))
    for proposal, row in zip(proposals, proposed, strict=True):  # what a model wrote: never markup or escapes
        source = f"proposed, cycle {row['cycle']}: {proposal.label}" + (f" - {row['reason']}" if row["reason"] else "")
        split = "[red]rejected[/]" if row["split"] == "rejected" else row["split"]
        table.add_row(*(escape(plain(text or "")) for text in (row["id"], row["category"], row["difficulty"],
                                                                row["layout"])), split, escape(plain(source)))
    Console(file=sys.stdout).print(table)
    return code


def _run_settings(path: str) -> dict:
    """What `tasks list --run` takes from a run directory: its suite, its split and its proposals."""
    import yaml

    from adaptive_skill.errors import UserError
    from adaptive_skill.report.proposals import read_proposals

    root = Path(path)
    if not root.is_dir():
        raise UserError(f"{path}: no such run directory")
    config_path = root / "config.yaml"
    if not (config_path.is_file() or (root / "events.jsonl").is_file()):
        raise UserError(f"{path}: not a run directory (no config.yaml or events.jsonl)")
    try:
        config = yaml.safe_load(config_path.read_text(encoding="utf-8")) if config_path.is_file() else {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UserError(f"{config_path}: unreadable ({str(exc).splitlines()[0]})") from None
    config = config if isinstance(config, dict) else {}
    paths = config.get("paths") if isinstance(config.get("paths"), dict) else {}
    found: dict = {"proposals": read_proposals(root)}
    if isinstance(paths.get("suite"), str):
        found["suite"] = paths["suite"]
    if isinstance(config.get("holdout_ratio"), int | float) and not isinstance(config.get("holdout_ratio"), bool):
        found["holdout_ratio"] = float(config["holdout_ratio"])
    if isinstance(config.get("seed"), int) and not isinstance(config.get("seed"), bool):
        found["seed"] = config["seed"]
    if isinstance(config.get("split_by_family"), bool):
        found["split_by_family"] = config["split_by_family"]
    if isinstance(config.get("holdout_families"), int) and not isinstance(config.get("holdout_families"), bool):
        found["holdout_families"] = config["holdout_families"]
    return found


def _proposed_row(proposal) -> dict:
    """A task the run proposed: in the train pool (admitted, or an older run's unverified one) or
    rejected, with the reason. Proposed tasks are never held out."""
    return {"id": proposal.id, "category": proposal.category or None, "difficulty": proposal.difficulty or None,
            "layout": "harbor" if proposal.status != "legacy" else "instruction only",
            "split": "train" if proposal.in_pool else "rejected", "source": "proposed", "cycle": proposal.cycle,
            "rejected_check": proposal.rejected_check,
            "status": proposal.status, "reason": None if proposal.in_pool else proposal.reason}


def validate_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import REFUSED_EXIT, load_config_from_args, selected_tasks
    from adaptive_skill.harness.agents import NopAgent, OracleAgent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.progress import BatchProgress

    config = load_config_from_args(args)
    tasks, refused = selected_tasks(args, config.sandbox.timeout_multiplier)
    provider = make_provider(config.sandbox)

    with BatchProgress(f"building {len(tasks)} images", len(tasks), quiet=args.quiet) as progress:
        for task in tasks:
            progress.started(task.id)
            try:
                provider.prepare(task)
                progress.finished(task.id, True)
            except Exception:  # recorded as build_error by the attempts below
                progress.finished(task.id, False, "build_error")

    outcomes = {}
    for agent in (OracleAgent(), NopAgent()):
        with BatchProgress(f"{agent.name} on {len(tasks)} tasks", len(tasks), quiet=args.quiet) as progress:
            outcomes[agent.name] = run_batch(
                tasks, agent, provider, None, workers=args.workers,
                on_start=lambda task: progress.started(task.id),
                on_result=lambda r, _c, want=agent.name == "oracle": progress.finished(
                    r.task_id, r.passed == want, r.failure_mode or ("passed" if r.passed else "")))

    report = build_report(tasks, outcomes["oracle"], outcomes["nop"], refused)
    if args.format == "json":
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    # 1: a loaded task is unsound; 3: every loaded task is sound but some were refused; 2 (raised
    # before this point): nothing could be loaded.
    if report["summary"]["unsound"]:
        return 1
    return REFUSED_EXIT if refused else 0


def build_report(tasks, oracle, nop, refused=()) -> dict:
    from adaptive_skill.files import tree_hash

    rows = []
    for task, o, n in zip(tasks, oracle, nop, strict=True):
        rows.append({
            "id": task.id, "category": task.category, "difficulty": task.difficulty, "files": tree_hash(task.path),
            "oracle": {"passed": o.passed, "reward": o.reward, "failure_mode": o.failure_mode},
            "nop": {"passed": n.passed, "reward": n.reward, "failure_mode": n.failure_mode},
            "sound": o.passed and not n.passed and n.failure_mode == "unresolved",
            "detail": "" if o.passed else o.detail[-1500:],
        })
    unsound = [r["id"] for r in rows if not r["sound"]]
    return {"tasks": rows, "refused": [r.to_dict() for r in refused],
            "summary": {"tasks": len(rows), "sound": len(rows) - len(unsound), "unsound": unsound,
                        "refused": [r.id for r in refused]}}


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    summary = report["summary"]
    refused = f", {len(summary['refused'])} refused" if summary.get("refused") else ""
    table = Table(title=f"{summary['sound']}/{summary['tasks']} tasks sound{refused}")
    for column in ("task", "category", "difficulty", "oracle", "nop", "sound"):
        table.add_column(column)

    def cell(outcome: dict) -> str:
        return "pass" if outcome["passed"] else f"fail ({outcome['failure_mode']})"

    for row in report["tasks"]:
        table.add_row(row["id"], row["category"], row["difficulty"], cell(row["oracle"]), cell(row["nop"]),
                      "[green]yes[/]" if row["sound"] else "[red]no[/]")
    for refused in report.get("refused", []):
        table.add_row(refused["id"], "", "", "", "", "[red]refused[/]")
    console = Console(file=sys.stdout)
    console.print(table)
    for row in report["tasks"]:
        if not row["sound"] and row["detail"]:
            console.print(f"[bold]{row['id']}[/] oracle output:\n{row['detail']}", markup=True, highlight=False)
