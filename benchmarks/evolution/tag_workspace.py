"""Rebuild an accepted tag's workspace from a kept curve record, checked to the byte.

    python benchmarks/evolution/tag_workspace.py benchmarks/evolution/results/curve-26 --tag evo-1 --out DIR

A kept record (benchmarks/evolution/results/curve-*/) holds no workspace, but its results.json holds
every SKILL.md each cycle's evolver wrote, and its state.json the hash of each evaluated workspace
(the round cache's folder, runs/evolve/baselines/<hash>/). The seed workspace is the repository's
`workspace/`; the tag is that plus the skills of every accepted cycle up to it, in order. The result
is checked against the record: its workspace_hash (evolve/rules.py, the gate's own key) must equal
the tag's, and the seed's must equal the record's seed, or nothing is kept (exit 2, one line). A cycle gated per
skill (`gating.per_skill`) gives the skills it kept: those it dropped are left out. Only records of
the distilling evolver can be rebuilt: it never deletes a file, which a record would not show.
The check catches a record whose parts disagree (a skill's text changed, a file added); someone who
edits both files consistently can pass it, and what is written stays under skills/ of DIR either way.

What it is for: measuring a tag on fresh sampling seeds, on rounds no gate decided on (docs/curve.md):
    adaptive-skill curve --config CONFIG --set curve.evolve=false --set "curve.workspaces=[DIR]" \\
        --set curve.first_round=2 --out OUT

`--lessons on|off` then rewrites each skill the distilling evolver wrote with the rules its entries
share stated (evolver.lessons, evolve/lessons.py) or not, its entries unchanged: the same tag with
and without its lessons, to measure on the same seeds what the rules add (issue 52). The result is
no longer the record's workspace; its new hash is printed. Rewriting a tag with the setting it was
made with gives the record's workspace back, byte for byte (a test checks).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.evolve.rules import workspace_hash  # noqa: E402
from adaptive_skill.workspace import copy_workspace  # noqa: E402

SEED = ROOT / "workspace"


class RebuildError(Exception):
    """The record cannot give this tag's workspace (one line, what and why)."""


def _hash_of(attempts_dir: str | None) -> str | None:
    """The workspace hash prefix in a part's round-cache folder (runs/evolve/baselines/<hash>/gate-...)."""
    parts = Path(attempts_dir).parts if attempts_dir else ()
    return parts[parts.index("baselines") + 1] if "baselines" in parts[:-1] else None


def rebuild(record: Path, tag: str, out: Path, seed: Path = SEED) -> str:
    """Write `tag`'s workspace to `out` (which must not exist); return its workspace_hash."""
    try:
        results = json.loads((record / "results.json").read_text())
        state = json.loads((record / "state.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RebuildError(f"{record}: not a kept curve record: {exc}") from None
    if results.get("settings", {}).get("evolver") != "distill":
        raise RebuildError(f"{record}: evolver {results.get('settings', {}).get('evolver')!r}: only a distill run's "
                           "tags can be rebuilt (other evolvers may delete files, which the record does not keep)")
    cycles = results.get("cycles") or []
    if not all(isinstance(c, dict) and isinstance(c.get("cycle"), int) for c in cycles):
        raise RebuildError(f"{record}/results.json: a cycle without its number")
    cycles = sorted(cycles, key=lambda c: c["cycle"])
    if not any(c.get("tag") == tag and c.get("accepted") for c in cycles):
        found = ", ".join(c["tag"] for c in cycles if c.get("tag")) or "none"
        raise RebuildError(f"{record}: no accepted cycle made {tag} (accepted tags: {found})")
    parts = state.get("parts") or {}
    want_seed, want_tag = _hash_of(parts.get("seed", {}).get("attempts_dir")), \
        _hash_of(parts.get(f"tag:{tag}", {}).get("attempts_dir"))
    if not want_seed or not want_tag:
        raise RebuildError(f"{record}/state.json: the seed's or {tag}'s round cache is not named: nothing to check "
                           "the rebuilt workspace against")
    if out.exists():
        raise RebuildError(f"{out}: exists; choose a new directory")
    with tempfile.TemporaryDirectory(prefix="tag-workspace-") as scratch:
        work = Path(scratch) / "ws"
        copy_workspace(seed, work)  # the engine's copy: a link in the seed is refused, never followed
        if not workspace_hash(work).startswith(want_seed):
            raise RebuildError(f"{seed}: differs from the record's seed workspace (hash {workspace_hash(work)[:16]}, "
                               f"record {want_seed}): rebuild from a checkout of the record's code")
        for cycle in cycles:
            if not cycle.get("accepted"):
                continue
            skills = cycle.get("skills")
            if not isinstance(skills, dict):
                raise RebuildError(f"{record}: cycle {cycle.get('cycle')}: its skills are not a mapping of "
                                   "path to text")
            dropped = cycle.get("skills_dropped") or []  # a gate per skill: these were taken out again
            if not isinstance(dropped, list) or not all(isinstance(name, str) for name in dropped):
                raise RebuildError(f"{record}: cycle {cycle.get('cycle')}: its dropped skills are not a list of names")
            for path, text in skills.items():
                if isinstance(path, str) and path.count("/") and path.split("/")[1] in dropped:
                    continue  # created: never written; modified: the earlier text stays, as the gate put it back
                if not isinstance(path, str) or not isinstance(text, str):
                    raise RebuildError(f"{record}: cycle {cycle.get('cycle')}: a skill's path or text is not text")
                target = (work / path).resolve()
                if (not path.startswith("skills/") or "\\" in path or not path.endswith("/SKILL.md")
                        or not target.is_relative_to((work / "skills").resolve())):
                    raise RebuildError(f"{record}: cycle {cycle.get('cycle')} names {path!r}, "
                                       "not a skills/<name>/SKILL.md")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            if cycle.get("tag") == tag:
                break
        got = workspace_hash(work)
        if not got.startswith(want_tag):
            raise RebuildError(f"{record}: the rebuilt {tag} has hash {got[:16]}, the record's is {want_tag}: "
                               "not the same workspace")
        shutil.copytree(work, out)
    return got


def set_lessons(workspace: Path, on: bool) -> list[str]:
    """Rewrite the body of every skill of `workspace` that the distilling evolver wrote
    (distill.written_here) with its lessons stated (`on`) or not, from its entries as read back; its
    frontmatter is kept as it is. The skills rewritten."""
    from adaptive_skill.evolve.distill import MIXED, body, read_entries, written_here

    rewritten = []
    for folder in sorted(p for p in (workspace / "skills").iterdir() if p.is_dir() and not p.is_symlink()):
        path = folder / "SKILL.md"
        if not path.is_file() or path.is_symlink() or not written_here(path):
            continue
        entries = read_entries(path)
        if not entries:
            continue
        text = path.read_text(encoding="utf-8")
        front = text[:text.index("\n---\n", 3) + 5]  # written_here parsed it: its closing line is there
        path.write_text(f"{front}\n{body(entries, shared=folder.name == MIXED, lessons=on)}", encoding="utf-8")
        rewritten.append(folder.name)
    return rewritten


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("record", type=Path, help="a kept curve record (benchmarks/evolution/results/curve-N)")
    p.add_argument("--tag", required=True, help="the accepted tag to rebuild, e.g. evo-1")
    p.add_argument("--out", required=True, type=Path, help="the directory to write (must not exist)")
    p.add_argument("--lessons", choices=("on", "off"), help="then rewrite the distilled skills with their lessons "
                   "stated or not (evolver.lessons)")
    args = p.parse_args(argv)
    try:
        got = rebuild(args.record, args.tag, args.out)
    except (RebuildError, UserError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: {args.tag} of {args.record.name}, workspace hash {got[:16]} (the record's)")
    if args.lessons:
        names = set_lessons(args.out, args.lessons == "on")
        now = workspace_hash(args.out)
        same = "the record's" if now == got else "not the record's"
        print(f"{args.out}: lessons {args.lessons} in {len(names)} skill(s) ({', '.join(names)}); "
              f"workspace hash {now[:16]} ({same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
