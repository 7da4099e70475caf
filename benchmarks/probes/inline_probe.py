"""Does the skill placed in the prompt (skill_in_prompt_tokens) cover the task? No model needed.

    python benchmarks/probes/inline_probe.py [--workspace DIR] [--suite DIR] [--tasks ID ...] [--ranking R]
        [--expect kinds|category] [--floor F] [--words-only]

For every task of the suite whose kind one of the workspace's skills is written for, which skill
agent/inline.py's best_skill places in the prompt (with the lexical embedder, the default), against
the skill written for that kind. The kinds are the expert workspace's (benchmarks/evolution/
expert-workspace): a task's category from its task.toml names the skill (git -> git-basics, json-csv
-> json-csv-python, scripting and sqlite -> shell-scripts, text-processing -> text-files,
files-permissions and archives -> files-archives, a zip archive -> json-csv-python).

`--ranking cosine` ranks instead by the lexical embedder's cosine, as best_skill did before run 7
(docs/results.md): the comparison. The budget is not applied to it (every expert skill fits 300).
Prints per task the expected and the placed skill and its relevance, then the share placed right,
none placed, and off-topic placed.

`--expect category` is for a workspace of distill.py's or the distilling evolver's (a skill per task
category, `<category>-worked-commands`, and the shared `mixed-worked-commands`): a task's skill is the
one declaring its category (metadata.category), and a task whose category no skill holds should get
none, so every skill placed for it is off-topic. The task's category (task.toml) is given to the
placement as the agent gives it; `--words-only` leaves it out, as before 2026-11-29, when words alone
decided. `--floor F` places nothing below
relevance F (what a higher WORD_MIN_RELEVANCE would do; the product's floor is one shared word).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.agent.inline import MIN_RELEVANCE, best_skill, embedder_relevance  # noqa: E402
from adaptive_skill.embed.lexical import LexicalEmbedder  # noqa: E402
from adaptive_skill.observe.tokens import TokenCounter  # noqa: E402
from adaptive_skill.skills import category_key, skill_categories  # noqa: E402
from adaptive_skill.workspace import Workspace  # noqa: E402

KIND_SKILL = {"git": "git-basics", "json-csv": "json-csv-python", "scripting": "shell-scripts",
              "sqlite": "shell-scripts", "text-processing": "text-files", "files-permissions": "files-archives",
              "archives": "files-archives"}


def expected_skill(task: Path) -> str | None:
    category = tomllib.loads((task / "task.toml").read_text())["metadata"].get("category")
    if category == "archives" and re.search(r"(^|-)(un)?zip", task.name):  # not gzip, gunzip
        return "json-csv-python"
    return KIND_SKILL.get(category)


def task_category(task: Path) -> str:
    return tomllib.loads((task / "task.toml").read_text())["metadata"].get("category") or "uncategorized"


def category_skills(task: Path, skills) -> list[str]:
    """The distilling evolver's skills for the task's category: those declaring it (metadata.category;
    the shared skill for the kinds it holds), else `<category>-worked-commands`; none when the
    workspace has none for it."""
    kind = category_key(task_category(task))
    declared = sorted(s.name for s in skills if kind in skill_categories(s))
    name = kind + "-worked-commands"
    return declared or ([name] if name in {s.name for s in skills} else [])


def cosine_pick(skills, instruction: str, embedder) -> str | None:
    """The ranking before run 7's: the lexical embedder's cosine, above MIN_RELEVANCE."""
    scores = embedder_relevance(skills, instruction, embedder)
    best = max(zip(scores, (s.name for s in skills), strict=True))
    return best[1] if best[0] >= MIN_RELEVANCE else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workspace", type=Path, default=ROOT / "benchmarks" / "evolution" / "expert-workspace")
    p.add_argument("--suite", type=Path, default=ROOT / "benchmarks" / "terminal-easy")
    p.add_argument("--tasks", nargs="+", help="only these task ids (e.g. a run's holdout)")
    p.add_argument("--budget", type=int, default=300, help="skill_in_prompt_tokens (default 300)")
    p.add_argument("--ranking", choices=["placed", "cosine"], default="placed",
                   help="placed: best_skill as the agent runs it; cosine: the embedder's cosine (before run 7)")
    p.add_argument("--expect", choices=["kinds", "category"], default="kinds",
                   help="kinds: the expert workspace's skill per kind (default); category: a distilled "
                        "library's skill declaring the task's category, none for a category without one")
    p.add_argument("--floor", type=float, default=0.0, help="place nothing below this relevance (default 0)")
    p.add_argument("--words-only", action="store_true",
                   help="do not give the task's category to the placement (as before 2026-11-29): words decide")
    args = p.parse_args(argv)
    skills = Workspace(args.workspace).skills(require_verification=False, max_body_chars=10**9)
    embedder, count = LexicalEmbedder(), TokenCounter().count
    tasks = sorted(t for t in args.suite.iterdir() if (t / "task.toml").is_file())
    if args.tasks:
        unknown = sorted(set(args.tasks) - {t.name for t in tasks})
        if unknown:
            print(f"error: --tasks: not in {args.suite}: {', '.join(unknown)}", file=sys.stderr)
            return 2
        tasks = [t for t in tasks if t.name in args.tasks]
    right = none = covered = uncovered = offtopic = stray = 0
    for task in tasks:
        if args.expect == "kinds":
            wants = [w] if (w := expected_skill(task)) else []
        else:
            wants = category_skills(task, skills)
        if not wants and args.expect == "kinds":
            continue
        want = " or ".join(wants) or None
        instruction = (task / "instruction.md").read_text()
        relevance = None
        if args.ranking == "cosine":
            got = cosine_pick(skills, instruction, embedder)
        else:
            placed = best_skill(skills, instruction, budget_tokens=args.budget, embedder=embedder, count_tokens=count,
                                category="" if args.words_only else task_category(task))
            got, relevance = (placed.name, placed.relevance) if placed else (None, None)
            if relevance is not None and relevance < args.floor:
                got = None
        if want is None:
            uncovered += 1
            stray += got is not None
        else:
            covered += 1
            right += got in wants
            none += got is None
        offtopic += got is not None and got not in wants
        shown = f"{got} ({relevance:.3f})" if got and relevance is not None else got or "(none)"
        print(f"{task.name:30s} expected {want or '(none)':28s} placed {shown}")
    if not covered and not uncovered:
        print("no task of a covered kind")
        return 0
    print(f"\n{args.ranking}: the right skill placed for {right} of {covered} tasks "
          f"({right / max(covered, 1):.0%}), none placed for {none}; an off-topic skill placed for {offtopic}, "
          f"{stray} of them of the {uncovered} task(s) whose kind has no skill")
    return 0


if __name__ == "__main__":
    sys.exit(main())
