"""Does the skill placed in the prompt (skill_in_prompt_tokens) cover the task? No model needed.

    python benchmarks/evolution/inline_probe.py [--workspace DIR] [--suite DIR] [--tasks ID ...] [--ranking R]

For every task of the suite whose kind one of the workspace's skills is written for, which skill
agent/inline.py's best_skill places in the prompt (the run's lexical embedder, the default), against
the skill written for that kind. The kinds are the expert workspace's (benchmarks/evolution/
expert-workspace): a task's category from its task.toml names the skill (git -> git-basics, json-csv
-> json-csv-python, scripting and sqlite -> shell-scripts, a zip archive -> json-csv-python); tasks of
other categories (text, files, tar) are left out, the expert's general skills serve them all.

`--ranking words` ranks instead by a word TF-IDF cosine between the instruction and each skill's name
and description (IDF over the library's skills): a comparison, not what the agent runs.
Prints per task the expected and the placed skill, then the share placed right, none placed, per set.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.agent.inline import best_skill  # noqa: E402
from adaptive_skill.embed.lexical import LexicalEmbedder  # noqa: E402
from adaptive_skill.observe.tokens import TokenCounter  # noqa: E402
from adaptive_skill.workspace import Workspace  # noqa: E402

KIND_SKILL = {"git": "git-basics", "json-csv": "json-csv-python", "scripting": "shell-scripts",
              "sqlite": "shell-scripts"}
STOP = set("the a an to of and or in on for with is are be that this it as at by from use when any "
           "your you not no so".split())


def expected_skill(task: Path) -> str | None:
    category = tomllib.loads((task / "task.toml").read_text())["metadata"].get("category")
    if category == "archives" and "zip" in task.name:
        return "json-csv-python"
    return KIND_SKILL.get(category)


def word_ranking(skills):
    """The comparison ranking: TF-IDF over words, the library's skills as the documents."""
    def words(text: str) -> list[str]:
        return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 1]

    docs = [Counter(words(f"{s.name.replace('-', ' ')} {s.description}")) for s in skills]
    df = Counter(w for d in docs for w in d)
    idf = {w: math.log((len(docs) + 1) / (c + 0.5)) for w, c in df.items()}

    def unit(counts: Counter) -> dict[str, float]:
        vector = {w: (1 + math.log(c)) * idf.get(w, 0.0) for w, c in counts.items()}
        norm = math.sqrt(sum(x * x for x in vector.values())) or 1.0
        return {w: x / norm for w, x in vector.items()}

    vectors = [unit(d) for d in docs]

    def pick(instruction: str) -> str | None:
        query = unit(Counter(words(instruction)))
        scored = [(sum(query.get(w, 0.0) * x for w, x in v.items()), s.name)
                  for v, s in zip(vectors, skills, strict=True)]
        best = max(scored)
        return best[1] if best[0] > 0 else None

    return pick


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workspace", type=Path, default=ROOT / "benchmarks" / "evolution" / "expert-workspace")
    p.add_argument("--suite", type=Path, default=ROOT / "benchmarks" / "terminal-easy")
    p.add_argument("--tasks", nargs="+", help="only these task ids (e.g. a run's holdout)")
    p.add_argument("--budget", type=int, default=300, help="skill_in_prompt_tokens (default 300)")
    p.add_argument("--ranking", choices=["embedder", "words"], default="embedder")
    args = p.parse_args(argv)
    skills = Workspace(args.workspace).skills(require_verification=False, max_body_chars=10**9)
    embedder, count = LexicalEmbedder(), TokenCounter().count
    words = word_ranking(skills)
    tasks = sorted(t for t in args.suite.iterdir() if (t / "task.toml").is_file())
    if args.tasks:
        unknown = sorted(set(args.tasks) - {t.name for t in tasks})
        if unknown:
            print(f"error: --tasks: not in {args.suite}: {', '.join(unknown)}", file=sys.stderr)
            return 2
        tasks = [t for t in tasks if t.name in args.tasks]
    right = none = covered = 0
    for task in tasks:
        want = expected_skill(task)
        if want is None:
            continue
        instruction = (task / "instruction.md").read_text()
        if args.ranking == "words":
            got = words(instruction)
        else:
            placed = best_skill(skills, instruction, budget_tokens=args.budget, embedder=embedder, count_tokens=count)
            got = placed.name if placed else None
        covered += 1
        right += got == want
        none += got is None
        print(f"{task.name:30s} expected {want:16s} placed {got or '(none)'}")
    if not covered:
        print("no task of a covered kind")
        return 0
    print(f"\n{args.ranking}: the right skill placed for {right} of {covered} tasks ({right / covered:.0%}), "
          f"none placed for {none}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
