"""`adaptive-skill skills check|list|show|diff|log|export|import`: inspect a skill library and its
versions, and move skills out to (and in from) Agent Skills folders."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adaptive_skill.commands.common import add_format_arg, add_option_with_old_positional

RUN_WORKSPACE = "workspace"  # a run directory keeps its versioned workspace here


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "skills", help="check, list, show, diff, log, export and import skills",
        description="Inspect a skill library and its versions (a workspace, or a run's versioned workspace), "
                    "and move skills out to and in from Agent Skills folders.",
        epilog="""examples:
  adaptive-skill skills log --run runs/20250101-220000-ab12cd
  adaptive-skill skills diff evo-0 evo-3 --run runs/20250101-220000-ab12cd
  adaptive-skill skills show NAME --run runs/20250101-220000-ab12cd --tag evo-2
  adaptive-skill skills export --run runs/20250101-220000-ab12cd --tag evo-3 --out skills-out""")
    sub = parser.add_subparsers(dest="skills_command", metavar="ACTION", required=True)

    check = sub.add_parser(
        "check", help="validate a skill directory, a skills/ directory, or a whole workspace "
                      "(then also: can the agent load it)",
        description="""Validate skills as the engine does before it accepts a change: each SKILL.md's front
                    matter (name, description), its body within --max-body-chars and with a '## Verification'
                    section, and no symlinks. Given a whole workspace, also whether the agent can load it
                    (its prompts and every file the skills name). Prints each problem and exits 2 if there
                    is one.""",
        epilog="""examples:
  adaptive-skill skills check workspace
  adaptive-skill skills check workspace/skills/check-your-work --max-body-chars 3000""")
    check.add_argument("path", metavar="PATH", help="a skill directory, a skills/ directory or a workspace")
    check.add_argument("--max-body-chars", type=int, default=2000, metavar="N", help="body size limit (default 2000)")
    check.add_argument("--no-verification", action="store_true",
                       help="do not require a '## Verification' section")
    check.set_defaults(handler=check_skills_cmd)

    def with_source(p: argparse.ArgumentParser, tag: bool = True) -> None:
        group = p.add_mutually_exclusive_group()
        group.add_argument("--workspace", "-w", metavar="DIR", help="workspace directory (default ./workspace)")
        group.add_argument("--run", metavar="DIR", help="a run directory (read its versioned workspace)")
        if tag:
            p.add_argument("--tag", metavar="TAG", help="read the library as it was at this tag or commit")

    listing = sub.add_parser(
        "list", help="list skills (name, description, size)",
        description="""List the skills of a workspace (default ./workspace) or of a run's versioned workspace,
                    as they are now or as they were at a tag: name, description and body size.""",
        epilog="""examples:
  adaptive-skill skills list
  adaptive-skill skills list --run runs/20250101-220000-ab12cd --tag evo-2 --format json""")
    with_source(listing)
    add_format_arg(listing, ("text", "json"), "text (default): a table; json: name, description, body_chars",
                   json_flag=True)
    listing.set_defaults(handler=list_skills_cmd)

    show = sub.add_parser(
        "show", help="print one skill's SKILL.md",
        description="Print one skill's SKILL.md, from a workspace or a run, now or at a tag.",
        epilog="""examples:
  adaptive-skill skills show check-your-work
  adaptive-skill skills show check-your-work --run runs/20250101-220000-ab12cd --tag evo-2""")
    show.add_argument("name", metavar="NAME", help="the skill's name (its directory under skills/)")
    with_source(show)
    show.set_defaults(handler=show_skill_cmd)

    diff = sub.add_parser(
        "diff", help="diff the workspace between two tags or commits",
        description="""What the library learned between two versions: a git diff of skills/ (with --all, of the
                    whole workspace: prompts and memory too) between two tags or commits.""",
        epilog="""examples:
  adaptive-skill skills diff evo-0 evo-3 --run runs/20250101-220000-ab12cd
  adaptive-skill skills diff evo-1 evo-2 --run runs/20250101-220000-ab12cd --all""")
    diff.add_argument("tag_a", metavar="TAG_A", help="the older tag or commit, e.g. evo-0")
    diff.add_argument("tag_b", metavar="TAG_B", help="the newer tag or commit, e.g. evo-3")
    diff.add_argument("--all", action="store_true", help="whole workspace, not only skills/")
    with_source(diff, tag=False)
    diff.set_defaults(handler=diff_cmd)

    def with_rules(p: argparse.ArgumentParser) -> None:
        p.add_argument("--max-body-chars", type=int, default=2000, metavar="N", help="body size limit (default 2000)")
        p.add_argument("--no-verification", action="store_true", help="do not require a '## Verification' section")
        p.add_argument("--force", action="store_true", help="replace skill directories that already exist")

    export = sub.add_parser(
        "export", help="write a version's skills as Agent Skills directories to --out DIR",
        description="""Write the skills of a workspace or of a run, now or at a tag, as Agent Skills folders
                    DIR/<name>/ (SKILL.md, scripts/, references/), each validated as skills check does; all
                    or nothing, and existing folders only with --force.""",
        epilog="""examples:
  adaptive-skill skills export --run runs/20250101-220000-ab12cd --tag evo-3 --out skills-out
  adaptive-skill skills export --workspace benchmarks/evolution/evolved-workspace --out skills-out --force""")
    add_option_with_old_positional(export, ("--out", "-o"), "DEST", "the folder to write", required=True,
                                   metavar="DIR", help="the skills folder to write: DIR/<name>/SKILL.md, scripts/, "
                                                       "references/")
    with_source(export)
    with_rules(export)
    export.set_defaults(handler=export_cmd)

    imp = sub.add_parser(
        "import", help="copy Agent Skills directories into a seed workspace's skills/",
        description="""Copy Agent Skills folders (one skill directory with a SKILL.md, or a folder of them)
                    into a seed workspace's skills/, each validated as skills check does; all or nothing, and
                    existing skills only with --force.""",
        epilog="""examples:
  adaptive-skill skills import skills-out --workspace my-seed
  adaptive-skill skills import skills-out/check-your-work --workspace my-seed --force""")
    imp.add_argument("src", metavar="SRC", help="one skill directory (with SKILL.md) or a folder of them")
    imp.add_argument("--workspace", "-w", metavar="DIR", required=True, help="the workspace to import into")
    with_rules(imp)
    imp.set_defaults(handler=import_cmd)

    log = sub.add_parser(
        "log", help="list tags with their metrics",
        description="""The versions of a workspace: each tag evo-N with its commit, date, summary and metrics;
                    with --run, also every change the gate decided, accepted or rejected, with its evidence.""",
        epilog="""examples:
  adaptive-skill skills log --run runs/20250101-220000-ab12cd
  adaptive-skill skills log --workspace workspace --format json""")
    with_source(log, tag=False)
    add_format_arg(log, ("text", "json"), 'text (default): tables; json: {"tags": [...], "decisions": [...]}',
                   json_flag=True)
    log.set_defaults(handler=log_cmd)


def _workspace_root(args: argparse.Namespace) -> Path:
    from adaptive_skill.errors import UserError

    if getattr(args, "run", None):
        run = Path(args.run)
        if not run.is_dir():
            raise UserError(f"{run}: no such run directory")
        return run / RUN_WORKSPACE
    root = Path(args.workspace or "workspace")
    if not root.is_dir():
        raise UserError(f"{root}: no such workspace directory (use --workspace DIR or --run DIR)")
    return root


def check_skills_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.skills import check_skills
    from adaptive_skill.workspace import SKILLS_DIR, SYSTEM_PROMPT

    path = Path(args.path)
    if (path / SYSTEM_PROMPT).exists() or (path / SYSTEM_PROMPT).is_symlink():  # a whole workspace
        from adaptive_skill.evolve.loadable import load_problems

        quality = check_skills(path / SKILLS_DIR, max_body_chars=args.max_body_chars,
                               require_verification=not args.no_verification) if (path / SKILLS_DIR).is_dir() else []
        problems = [str(p) for p in quality]
        problems += [f"{path / p.path}: {p.message}" for p in load_problems(path)
                     if not any(q.path.is_relative_to(path / p.path) for q in quality)]
    else:
        problems = [str(p) for p in check_skills(path, max_body_chars=args.max_body_chars,
                                                 require_verification=not args.no_verification)]
    if problems:
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found")
        return 2
    print(f"{path}: ok")
    return 0


def _skills_at(root: Path, tag: str | None) -> list[dict]:
    """Name, description and body of every skill, in the work tree or at a tag."""
    from adaptive_skill.errors import SkillError
    from adaptive_skill.skills import DRAFTS_DIR, NAME_PATTERN, SkillFormatError, parse_skill_text
    from adaptive_skill.workspace import Workspace

    if tag is None:
        return [{"name": s.name, "description": s.description, "body": s.body}
                for s in Workspace(root).skills(require_verification=False, max_body_chars=10**9)]
    from adaptive_skill.versioning import WorkspaceRepo

    repo = WorkspaceRepo.open(root)
    found = []
    for name in repo.list_dir(tag, "skills"):
        if name == DRAFTS_DIR or not NAME_PATTERN.match(name):
            continue
        try:
            data, body = parse_skill_text(repo.read_file(tag, f"skills/{name}/SKILL.md"))
        except SkillFormatError as exc:
            raise SkillError(f"skills/{name}/SKILL.md at {tag}: {exc}") from None
        found.append({"name": name, "description": str(data.get("description", "")).strip(), "body": body})
    return found


def list_skills_cmd(args: argparse.Namespace) -> int:
    skills = _skills_at(_workspace_root(args), args.tag)
    if args.format == "json":
        print(json.dumps([{"name": s["name"], "description": s["description"], "body_chars": len(s["body"])}
                          for s in skills], indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(skills)} skill{'s' if len(skills) != 1 else ''}"
                        + (f" at {args.tag}" if args.tag else ""))
    table.add_column("name", style="bold")
    table.add_column("description")
    table.add_column("body chars", justify="right")
    for skill in skills:
        table.add_row(skill["name"], " ".join(skill["description"].split()), str(len(skill["body"])))
    Console().print(table)
    return 0


def show_skill_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.errors import SkillError
    from adaptive_skill.skills import NAME_PATTERN

    root = _workspace_root(args)
    if not NAME_PATTERN.match(args.name):
        raise SkillError(f"{args.name!r} is not a valid skill name")
    if args.tag:
        from adaptive_skill.versioning import WorkspaceRepo

        print(WorkspaceRepo.open(root).read_file(args.tag, f"skills/{args.name}/SKILL.md"), end="")
    else:
        from adaptive_skill.workspace import Workspace

        skill = Workspace(root).skill(args.name)
        print((skill.path / "SKILL.md").read_text(encoding="utf-8"), end="")
    return 0


def diff_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.versioning import WorkspaceRepo

    repo = WorkspaceRepo.open(_workspace_root(args))
    text = repo.diff(args.tag_a, args.tag_b, None if args.all else ["skills"])
    print(text if text else f"no differences in {'the workspace' if args.all else 'skills/'} "
                            f"between {args.tag_a} and {args.tag_b}")
    return 0


def log_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.versioning import WorkspaceRepo

    tags = WorkspaceRepo.open(_workspace_root(args)).tags()
    decisions = _gate_decisions(Path(args.run)) if getattr(args, "run", None) else []
    if args.format == "json":
        print(json.dumps({"tags": [{"tag": t.name, "commit": t.commit, "date": t.date.isoformat(timespec="seconds"),
                                    "summary": t.summary, "metrics": t.metrics} for t in tags],
                          "decisions": decisions}, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not tags:
        print("no tags yet")
    else:
        table = Table(title="workspace versions")
        for column in ("tag", "commit", "date", "summary", "metrics"):
            table.add_column(column)
        for t in tags:
            metrics = ", ".join(f"{k}={v}" for k, v in sorted(t.metrics.items()))
            table.add_row(t.name, t.commit[:10], t.date.strftime("%Y-%m-%d %H:%M"), t.summary, metrics)
        console.print(table)
    if decisions:
        table = Table(title="changes the gate decided (accepted and rejected)")
        for column in ("cycle", "change", "evidence"):
            table.add_column(column)
        for d in decisions:
            table.add_row(str(d["cycle"]), d["change"] or "", "\n".join(d["evidence"]))
        console.print(table)
    return 0


def _gate_decisions(run: Path) -> list[dict]:
    """Each gated change of a run: the cycle, what the evolver changed, and the gate's evidence
    (engine/records.py, GateResult.evidence); read from cycles/<n>/evolve.json and gate.json, skipping
    torn files."""
    from adaptive_skill.engine.records import GateResult
    from adaptive_skill.files import read_json

    found = []
    for folder in sorted((run / "cycles").glob("[0-9]*")):
        if not folder.name.isdigit():  # cycles are 001, 002...: anything else is not the engine's
            continue
        gate = read_json(folder / "gate.json", None)
        if not isinstance(gate, dict) or not gate.get("gated"):
            continue
        try:
            result = GateResult.from_dict(gate)
        except (KeyError, TypeError, ValueError):
            continue
        evolve = read_json(folder / "evolve.json", None)
        summary = evolve.get("summary") if isinstance(evolve, dict) else None
        found.append({"cycle": int(folder.name), "change": summary if isinstance(summary, str) else None,
                      "accepted": result.accepted, "evidence": result.evidence()})
    return found


# -- export / import: Agent Skills folders ----------------------------------------------------------


def _skill_dirs(source: Path) -> list[Path]:
    """`source` itself when it is one skill directory, else its skill directories (hidden entries
    and skills/_drafts left out). A symlink anywhere on the way is refused."""
    from adaptive_skill.errors import SkillError
    from adaptive_skill.skills import DRAFTS_DIR

    if source.is_symlink():
        raise SkillError(f"{source}: is a symlink; refusing to follow it")
    if not source.is_dir():
        raise SkillError(f"{source}: no such directory")
    if (source / "SKILL.md").exists() or (source / "SKILL.md").is_symlink():
        return [source]
    found = []
    for entry in sorted(source.iterdir()):
        if entry.name.startswith(".") or entry.name == DRAFTS_DIR:
            continue
        if entry.is_symlink():
            raise SkillError(f"{entry}: is a symlink; refusing to follow it")
        if entry.is_dir():
            found.append(entry)
    return found


def _transfer(folders: list[Path], dest: Path, args: argparse.Namespace, what: str) -> list[str]:
    """Validate every folder, refuse symlinks and existing targets (unless --force), then copy them all
    into `dest`/<name> (each through a temporary directory and a rename). Returns the names copied."""
    import shutil
    import tempfile

    from adaptive_skill.agent.skillfiles import copy_skill_tree
    from adaptive_skill.errors import SkillError, UserError
    from adaptive_skill.skills import check_skill_dir

    if not folders:
        raise SkillError(f"{what}: no skill directories found")
    for folder in folders:
        problems = check_skill_dir(folder, max_body_chars=args.max_body_chars,
                                   require_verification=not args.no_verification, root=folder)
        links = [p for p in sorted(folder.rglob("*")) if p.is_symlink()]
        if links:
            raise SkillError(f"{links[0]}: symlinks are not allowed in a skill")
        if problems:
            more = f" (and {len(problems) - 1} more; see `adaptive-skill skills check`)" if len(problems) > 1 else ""
            raise SkillError(f"{problems[0]}{more}")
    existing = [f.name for f in folders if (dest / f.name).exists() or (dest / f.name).is_symlink()]
    if existing and not args.force:
        verb = "exists" if len(existing) == 1 else "exist"
        raise UserError(f"{dest}: {', '.join(existing)} already {verb}; use --force to replace")
    if dest.is_symlink():
        raise UserError(f"{dest}: is a symlink; refusing to write through it")
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".skills-", dir=dest) as scratch:
        staged = Path(scratch)
        for folder in folders:
            try:
                copy_skill_tree(folder, staged / folder.name, strict=True)
            except ValueError as exc:
                raise SkillError(str(exc)) from None
        for folder in folders:
            target = dest / folder.name
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.exists():
                shutil.rmtree(target)
            (staged / folder.name).rename(target)
    return [f.name for f in folders]


def export_cmd(args: argparse.Namespace) -> int:
    import tarfile
    import tempfile

    from adaptive_skill.errors import UserError

    root = _workspace_root(args)
    dest = Path(args.out)
    with tempfile.TemporaryDirectory(prefix="adaptive-skill-export-") as scratch:
        if args.tag:
            from adaptive_skill.versioning import WorkspaceRepo

            tree = Path(scratch) / "tree"
            try:
                WorkspaceRepo.open(root).export(args.tag, tree)
            except tarfile.TarError as exc:  # e.g. a symlink leaving the tree, refused by the data filter
                raise UserError(f"{root} at {args.tag}: cannot export: {exc}") from None
            source = tree / "skills"
        else:
            source = root / "skills"
        if not source.is_dir() or source.is_symlink():
            raise UserError(f"{root}: no skills/ directory" + (f" at {args.tag}" if args.tag else ""))
        names = _transfer(_skill_dirs(source), dest, args, f"{root}/skills")
    print(f"exported {len(names)} skill{'s' if len(names) != 1 else ''} to {dest}: {', '.join(names)}")
    return 0


def import_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.workspace import Workspace

    workspace = Workspace(Path(args.workspace)).require()
    if workspace.skills_dir.is_symlink():
        from adaptive_skill.errors import UserError

        raise UserError(f"{workspace.skills_dir}: is a symlink; refusing to write through it")
    names = _transfer(_skill_dirs(Path(args.src)), workspace.skills_dir, args, args.src)
    print(f"imported {len(names)} skill{'s' if len(names) != 1 else ''} into {workspace.skills_dir}: "
          f"{', '.join(names)}")
    return 0
