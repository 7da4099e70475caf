"""`adaptive-skill run --suite DIR --agent oracle|nop`: a batch of attempts with results on disk."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_format_arg, add_quiet_arg, add_suite_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run an agent on a batch of tasks and verify the results",
        description="""Run an agent on a suite's tasks (or the --task ones), a few at a time, each in its own
                    sandbox, and verify every attempt with the task's tests: oracle (the reference solution),
                    nop (does nothing) or llm (the LLM agent with the config's workspace). One result file per
                    task goes to --out; the same command again skips the finished tasks. Exit code 3 when
                    some tasks could not be loaded and the rest ran.""",
        epilog="""examples:
  adaptive-skill run --suite benchmarks/terminal-easy --agent oracle --workers 2
  adaptive-skill run --suite benchmarks/terminal-easy --agent llm --config configs/quickstart.yaml --estimate""")
    add_suite_arg(parser, "the suite directory (one task per subdirectory)")
    parser.add_argument("--agent", default="oracle", choices=["oracle", "nop", "llm"],
                        help="which agent runs (llm: models.agent from the config)")
    parser.add_argument("--task", action="append", default=[], metavar="ID", help="only these tasks (repeatable)")
    parser.add_argument("--workers", type=int, default=2, metavar="N", help="attempts in parallel (default 2)")
    parser.add_argument("--out", "-o", metavar="DIR",
                        help="the directory to write, one result file per task; a re-run skips finished tasks "
                             "(--agent llm: the run's directory, default runs/run-<time>/)")
    parser.add_argument("--estimate", action="store_true",
                        help="--agent llm: also estimate each attempt label-free (the judge, models.judge, on its "
                             "record; with judge.check_state also on checks of its final state) and put the "
                             "estimate beside the tests' result, with its precision and recall against them "
                             "(<out>/estimates/<task>.json)")
    parser.add_argument("--keep-state", action="store_true",
                        help="--agent llm in Docker: keep what each attempt left (<out>/state/<task>/, its digest in "
                             "state.json), as the engine keeps it for the vote of explore.agree")
    add_format_arg(parser, ("text", "json"), "text (default): a table; json: results, refused tasks and a summary",
                   json_flag=True)
    add_quiet_arg(parser)
    add_config_args(parser, "sandbox.timeout_multiplier=2")
    parser.set_defaults(handler=run_cmd)


def run_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import REFUSED_EXIT, load_config_from_args, selected_tasks
    from adaptive_skill.errors import UserError
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.progress import BatchProgress

    config = load_config_from_args(args)
    if args.estimate and args.agent != "llm":
        raise UserError("--estimate needs --agent llm: only the LLM agent leaves a record to estimate")
    tasks, refused = selected_tasks(args, config.sandbox.timeout_multiplier)
    provider = make_provider(config.sandbox)
    out = Path(args.out) if args.out else None
    if args.agent == "llm":
        import time

        from adaptive_skill.workspace import Workspace

        out = out or config.paths.runs_dir / f"run-{time.strftime('%Y%m%d-%H%M%S')}"
        workspace = Workspace(config.paths.workspace).require()
        settle_agent_grammar(config, args.quiet)
        agent = build_agent("llm", config, workspace=workspace, trajectories_dir=out / "trajectories")
        run_root, out = out, out / "results"
    else:
        agent, run_root = build_agent(args.agent, config), None
    checking = args.estimate and config.judge.check_state  # docker: the config refuses it otherwise
    if args.keep_state and (args.agent != "llm" or provider.kind != "docker"):
        raise UserError("--keep-state needs --agent llm and sandbox.kind: docker (it reads the container's files)")
    state_dir = run_root / "state" if checking or args.keep_state else None

    with BatchProgress(f"{agent.name} on {len(tasks)} tasks", len(tasks), quiet=args.quiet) as progress:
        results = run_batch(
            tasks, agent, provider, out, workers=args.workers, state_dir=state_dir,
            on_start=lambda task: progress.started(task.id),
            on_result=lambda r, cached: progress.finished(
                r.task_id, r.passed, ("(already done) " if cached else "") + (r.failure_mode or "")))
    estimates = estimate_results(config, provider, tasks, results, run_root, state_dir if checking else None,
                                 args.quiet) if args.estimate else None

    if args.format == "json":
        print(json.dumps({"results": [r.to_dict() for r in results], "refused": [r.to_dict() for r in refused],
                          "summary": summarise(results, estimates),
                          **({"estimates": estimates} if estimates is not None else {})}, indent=2))
    else:
        print_table(results, estimates)
        if estimates is not None:
            print(estimate_line(summarise(results, estimates)["estimate"]))
    return REFUSED_EXIT if refused else 0


def settle_agent_grammar(config, quiet: bool) -> None:
    """A served agent model (api_base, grammar: auto): ask its endpoint once where it takes the text
    protocol's grammar, before any attempt (llm/negotiate.py settle_grammar), and say what it found."""
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.llm.negotiate import settle_grammar

    model = config.models.agent
    if model.grammar != "auto" or not model.api_base:
        return
    found = settle_grammar(model, make_llm(model, Accounting(config.limits), role="agent"))
    if found is not None and not quiet:
        print(found.line(), file=sys.stderr)


def estimate_results(config, provider, tasks, results, run_root: Path, state_dir: Path | None,
                     quiet: bool) -> dict[str, dict]:
    """Each attempt's label-free estimate (observe/estimate.py), written to run_root/estimates/<task>.json
    with the tests' result and the seconds it took beside it, and reused by a re-run."""
    import time

    from adaptive_skill.files import read_json, write_json_atomic
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.observe.checks import Checker
    from adaptive_skill.observe.estimate import estimate_attempt, load_trajectory
    from adaptive_skill.observe.judge import Judge
    from adaptive_skill.progress import BatchProgress

    by_id = {t.id: t for t in tasks}
    llm = make_llm(config.models.judge, Accounting(config.limits), role="judge")
    judge = Judge(llm, config.judge, run_root / "judge-cache")
    if hasattr(llm, "negotiate"):  # a served model: find how its endpoint takes the verdict's schema
        from adaptive_skill.llm.base import LLMConfigError

        found = llm.negotiate(judge.schema)
        if found.way is None:
            raise LLMConfigError(found.line())
        if found.probed and not quiet:
            print(found.line(), file=sys.stderr)
    checker = Checker(llm, run_root / "judge-cache" / "checks", timeout=config.judge.check_timeout_sec) \
        if state_dir is not None else None
    estimates: dict[str, dict] = {}
    with BatchProgress(f"label-free estimate of {len(results)} attempts", len(results), quiet=quiet) as progress:
        for result in results:
            path = run_root / "estimates" / f"{result.task_id}.json"
            saved = read_json(path, None)
            if not isinstance(saved, dict):
                started = time.monotonic()
                estimate = estimate_attempt(judge, by_id[result.task_id], load_trajectory(result.trajectory_path),
                                            checker=checker, provider=provider,
                                            state_dir=state_dir / result.task_id if state_dir else None)
                verified = result.failure_mode != "unverified"
                saved = {**estimate.to_dict(), "tests_passed": bool(result.passed) if verified else None,
                         "seconds": round(time.monotonic() - started, 3)}  # what the verdict cost
                write_json_atomic(path, saved)
            estimates[result.task_id] = saved
            progress.finished(result.task_id, bool(saved.get("likely_solved")),
                              f"score {saved['score']:g}" if saved.get("score") is not None else "no verdict")
    return estimates


def summarise(results, estimates: dict[str, dict] | None = None) -> dict:
    from collections import Counter

    summary = {"tasks": len(results), "passed": sum(r.passed for r in results),
               "failure_modes": dict(Counter(r.failure_mode for r in results if r.failure_mode))}
    if estimates is not None:
        pairs = [(e["likely_solved"], e["tests_passed"]) for e in estimates.values()
                 if e.get("likely_solved") is not None and e.get("tests_passed") is not None]
        tp = sum(1 for p, t in pairs if p and t)
        said, real = sum(1 for p, _ in pairs if p), sum(1 for _, t in pairs if t)
        summary["estimate"] = {"compared": len(pairs), "likely_solved": said, "tests_passed": real,
                               "both": tp, "precision": round(tp / said, 4) if said else None,
                               "recall": round(tp / real, 4) if real else None,
                               "checked": sum(1 for e in estimates.values() if e.get("checked"))}
    return summary


def estimate_line(s: dict) -> str:
    def pct(value):
        return "-" if value is None else f"{value:.0%}"

    return (f"label-free estimate against the tests, {s['compared']} attempt(s) ({s['checked']} with checks of the "
            f"final state): it passed {s['likely_solved']}, the tests {s['tests_passed']}, both {s['both']}; "
            f"precision {pct(s['precision'])}, recall {pct(s['recall'])}")


def print_table(results, estimates: dict[str, dict] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{sum(r.passed for r in results)}/{len(results)} passed")
    columns = ["task", "category", "passed", "reward", "failure mode", "seconds"]
    for column in columns + (["estimate"] if estimates is not None else []):
        table.add_column(column)
    for r in results:
        row = [r.task_id, r.category, "yes" if r.passed else "no", "" if r.reward is None else f"{r.reward:g}",
               r.failure_mode or "", f"{sum(r.durations.values()):.1f}"]
        if estimates is not None:
            e = estimates.get(r.task_id) or {}
            verdict = ("pass" if e.get("likely_solved") else "fail") + (", checked" if e.get("checked") else "")
            row.append("-" if e.get("score") is None else f"{e['score']:g} ({verdict})")
        table.add_row(*row)
    Console(file=sys.stdout).print(table)
