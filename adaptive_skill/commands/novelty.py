"""`adaptive-skill novelty "SEED PROBLEM"`: propose tasks from changing expert or domain perspectives
until embedding novelty says stop (docs/novelty.md).

Settings come from `novelty.*`, `models.proposer` and `models.embedder` in the config; every flag
overrides its key. Exit 0 when the loop ends by its strategy or max-iter, 1 when it gave up
after repeated model failures or a spent budget or without any task (the trajectory is still
written), 2 for bad input, 130 when interrupted (after writing what was proposed so far).

`adaptive-skill novelty-experiment --problems FILE --out DIR` runs the loop under the five perspective
conditions on every problem and writes tables and plots (docs/novelty-experiments.md). It is a
command of its own because `novelty` takes the seed problem as its positional argument.
"""

from __future__ import annotations

import argparse

from adaptive_skill.commands.common import OldOption, add_config_args, add_quiet_arg, require

# flag dest -> NoveltyConfig field, for overrides and for naming the flag in errors
_NOVELTY_FLAGS = {"strategy": "strategy", "threshold": "threshold", "exhaust_threshold": "exhaust_threshold",
                  "clusters": "clusters", "max_iter": "max_iterations", "language": "language",
                  "perturbation": "perturbation", "seed": "seed"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("novelty", help="propose novel tasks for a problem from sampled expert perspectives",
                                   description="Propose tasks for a problem from changing expert or domain "
                                               "perspectives until embedding novelty says stop.",
                                   epilog="""examples:
  adaptive-skill novelty "Improve urban transportation" --strategy coverage --clusters 6
  adaptive-skill novelty "Improve urban transportation" --out runs/20250101-220000-ab12cd/proposals/transport.json""")
    parser.add_argument("problem", metavar="SEED_PROBLEM", help='e.g. "Improve urban transportation"')
    parser.add_argument("--strategy", choices=["breakthrough", "exhaust", "coverage"],
                        help="when to stop (default: novelty.strategy, breakthrough)")
    parser.add_argument("--threshold", "-t", type=float, metavar="X",
                        help="breakthrough at this novelty (default: novelty.threshold, 0.4)")
    parser.add_argument("--exhaust-threshold", type=float, metavar="X",
                        help="exhaust: stop when the rolling mean novelty falls below X (default 0.15)")
    parser.add_argument("--clusters", type=int, metavar="N", help="coverage: stop at N distinct clusters (default 5)")
    parser.add_argument("--max-iter", type=int, metavar="N", help="at most N iterations (default 20)")
    parser.add_argument("--language", "-l", choices=["en", "zh"], help="prompts and perspectives (default en)")
    parser.add_argument("--perturbation", choices=["expert", "domain", "hybrid"],
                        help="occupations, Dewey domains, or one of each (default expert)")
    parser.add_argument("--contrastive", action="store_true", default=None,
                        help="show the model its recent tasks and ask for something unlike them")
    parser.add_argument("--archive", action="store_true", default=None,
                        help="keep the most novel task per category x difficulty cell and point at empty cells")
    parser.add_argument("--seed", type=int, metavar="N", help="perspective sampling seed (default: a fresh order)")
    parser.add_argument("--model", help="the proposer's model (default: models.proposer.model)")
    parser.add_argument("--embedding-model", metavar="MODEL",
                        help="lexical, sentence-transformers[/NAME] or a litellm embedding model "
                             "(default: models.embedder.model)")
    parser.add_argument("--temperature", type=float, metavar="T", help="the proposer's temperature (default 0.7)")
    parser.add_argument("--out", "-o", metavar="FILE", help="the file to write: the whole trajectory as JSON "
                                                            "('-': stdout)")
    parser.add_argument("--output", dest="out", action=OldOption, replaced_by="--out")
    add_quiet_arg(parser)
    parser.add_argument("--details", action="store_true", help="each task's instruction and rationale, and its "
                                                               "distances")
    # -v/--verbose here once meant these details and tracebacks, shadowing the global -v; for a release
    # they still mean both. The global `adaptive-skill -v novelty ...` gives tracebacks.
    parser.add_argument("-v", "--verbose", dest="details", action=OldOption, const=True, also={"verbose": True},
                        replaced_by="--details (tracebacks: adaptive-skill -v novelty ...)")
    add_config_args(parser, "models.proposer.max_tokens=1024")
    parser.set_defaults(handler=novelty_cmd)
    _register_experiment(subparsers)


def _register_experiment(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "novelty-experiment", help="compare perspective conditions of the novelty loop on seed problems",
        description="Run the novelty loop under several perspective conditions on each problem of a file, "
                    "with repeats; resumable. Writes tables (JSON, CSV, markdown), plots and summary.html to DIR.",
        epilog="""examples:
  adaptive-skill novelty-experiment --problems benchmarks/novelty-problems.yaml --out novelty-exp
  adaptive-skill novelty-experiment --problems benchmarks/novelty-problems.yaml --out exp --repeats 1 --no-plots""")
    parser.add_argument("--problems", "-p", required=True, metavar="FILE",
                        help="YAML: a list of problem texts, or `problems:` entries with id and text")
    # named here, not imported: --help must not load the novelty package (numpy)
    parser.add_argument("--conditions", metavar="LIST",
                        help="comma-separated, from direct, expert-only, attribute-only, full-pipeline, "
                             "random-perspective (default: all)")
    parser.add_argument("--repeats", type=int, default=3, metavar="N",
                        help="runs per problem and condition (default 3)")
    parser.add_argument("--max-iter", type=int, metavar="N",
                        help="iterations per run (default: novelty.max_iterations)")
    parser.add_argument("--threshold", "-t", type=float, metavar="X", help="breakthrough novelty (default 0.4)")
    parser.add_argument("--language", "-l", choices=["en", "zh"], help="prompts and perspectives (default en)")
    parser.add_argument("--seed", type=int, metavar="N", help="base sampling seed; repeat r uses N+r (default 0)")
    parser.add_argument("--model", help="the proposer's model (default: models.proposer.model)")
    parser.add_argument("--embedding-model", metavar="MODEL", help="the embedder (default: models.embedder.model)")
    parser.add_argument("--temperature", type=float, metavar="T", help="the proposer's temperature")
    parser.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    require(parser, parser.add_argument("--out", "-o", metavar="DIR", help="the directory to write: records, "
                                                                           "tables and plots (re-run to resume)"))
    parser.add_argument("--output", dest="out", action=OldOption, replaced_by="--out")
    add_quiet_arg(parser)
    add_config_args(parser, "models.proposer.max_tokens=1024")
    # the flags of `novelty` this command does not offer keep their config values
    parser.set_defaults(handler=experiment_cmd, strategy=None, exhaust_threshold=None, clusters=None,
                        perturbation=None, contrastive=False, archive=False)


def experiment_cmd(args: argparse.Namespace) -> int:
    from pathlib import Path

    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.embed import EmbedderError, make_embedder
    from adaptive_skill.errors import UserError
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.novelty.experiments import conditions, report
    from adaptive_skill.novelty.experiments.problems import load_problems
    from adaptive_skill.novelty.experiments.runner import ExperimentRunner, Plan
    from adaptive_skill.novelty.experiments.store import RecordStore
    from adaptive_skill.novelty.experiments.tables import spend_text
    from adaptive_skill.progress import Display

    try:
        chosen = conditions.parse_conditions(args.conditions or ",".join(conditions.CONDITIONS))
    except ValueError as exc:
        raise UserError(f"--conditions: {exc}") from None
    if args.repeats < 1:
        raise UserError(f"--repeats: must be at least 1 (got {args.repeats})")
    problems = load_problems(Path(args.problems))
    if not args.no_plots:
        from adaptive_skill.novelty.experiments.plots import require_matplotlib

        require_matplotlib()
    config = load_config_from_args(args)
    settings, proposer_model, embedder_config = _overridden(config, args)
    display = Display("quiet" if args.quiet else "auto")
    accounting = Accounting(config.limits, on_call=display.on_call)
    llm = make_llm(proposer_model, accounting, role="proposer")
    embedder = make_embedder(embedder_config)
    out = Path(args.out)
    plan = Plan(problems, chosen, args.repeats, settings)
    runner = ExperimentRunner(plan, RecordStore(out), llm, embedder, accounting, config.judge.categories, display)
    try:
        outcome = runner.run()
    except EmbedderError as exc:  # a seed problem could not be embedded: nothing can be scored
        raise UserError(f"models.embedder ({embedder_config.model}): {exc}") from None
    written = report.write(plan, RecordStore(out), out, model=llm.model, embedder=embedder.name,
                           plots=not args.no_plots)
    print(f"{outcome.ran} run(s) done, {outcome.skipped} done before; {outcome.failed_iterations} failed "
          f"iteration(s); spent this session {spend_text(outcome.cost, outcome.tokens)}")
    print(f"wrote {', '.join(str(p) for p in written)}")
    if outcome.stopped == "interrupted":
        print("interrupted: re-run the same command to resume")
        return 130
    if outcome.stopped == "budget":
        print("stopped: the budget is spent (limits.*); raise it and re-run to resume")
        return 1
    return 0


def novelty_cmd(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.embed import EmbedderError, make_embedder
    from adaptive_skill.errors import UserError
    from adaptive_skill.files import write_json_atomic
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.novelty.display import NoveltyDisplay
    from adaptive_skill.novelty.proposer import NoveltyTaskProposer

    problem = " ".join(args.problem.split())
    if not problem:
        raise UserError("the seed problem is empty")
    config = load_config_from_args(args)
    settings, proposer_model, embedder_config = _overridden(config, args)

    to_stdout = args.out == "-"
    display = NoveltyDisplay(sys.stderr if to_stdout else sys.stdout, settings.threshold, quiet=args.quiet,
                             verbose=args.details)
    llm = make_llm(proposer_model, Accounting(config.limits), role="proposer")
    embedder = make_embedder(embedder_config)
    proposer = NoveltyTaskProposer(llm, embedder, settings, config.judge.categories)
    display.start(problem, settings.strategy, llm.model, embedder.name)
    try:
        run = proposer.run(problem, on_iteration=display.iteration)
    except EmbedderError as exc:  # the seed could not be embedded: nothing can be scored
        raise UserError(f"models.embedder ({embedder_config.model}): {exc}") from None
    display.summary(run)

    if to_stdout:
        import json

        print(json.dumps(run.to_dict(), indent=2, ensure_ascii=False))
    elif args.out:
        write_json_atomic(Path(args.out), run.to_dict())
    if run.stop.kind == "interrupted":
        return 130
    return 1 if run.stop.kind in ("failures", "budget") or not run.proposals else 0


def _overridden(config, args: argparse.Namespace):
    """The novelty settings, proposer model and embedder with the flags applied, validated; a bad
    value ends in one line naming the flag."""
    from pydantic import ValidationError

    from adaptive_skill.config import EmbedderConfig, ModelConfig, NoveltyConfig
    from adaptive_skill.errors import UserError

    flags = {field: getattr(args, dest) for dest, field in _NOVELTY_FLAGS.items() if getattr(args, dest) is not None}
    flags.update({name: True for name in ("contrastive", "archive") if getattr(args, name)})
    model = {"model": args.model, "temperature": args.temperature}
    parts = [(NoveltyConfig, config.novelty, flags, {v: k for k, v in _NOVELTY_FLAGS.items()}),
             (ModelConfig, config.models.proposer, {k: v for k, v in model.items() if v is not None},
              {"model": "model", "temperature": "temperature"}),
             (EmbedderConfig, config.models.embedder,
              {"model": args.embedding_model} if args.embedding_model is not None else {},
              {"model": "embedding_model"})]
    result = []
    for cls, current, updates, flag_of in parts:
        try:
            result.append(cls.model_validate({**current.model_dump(), **updates}))
        except ValidationError as exc:
            error = exc.errors()[0]
            name = str(error["loc"][0]) if error["loc"] else ""
            flag = flag_of.get(name, name).replace("_", "-")
            raise UserError(f"--{flag}: {error['msg']} (got {error.get('input')!r})") from None
    return tuple(result)
