#!/usr/bin/env python3
"""Write the terminal-families suite from the family definitions in _families/*.py.

Each family is one recipe (the command shape that solves every instance) and at least 8 instances
that differ in paths, names, values, file formats and wording, each written to catch the same slip
(the mistake a small model makes on this kind of work sometimes, not always). This script turns the
definitions into tasks in the Harbor layout the loader reads (instruction.md, task.toml,
environment/, solution/solve.sh, tests/), plus families.toml. Every task of the suite shares the
same Dockerfile up to its last two lines, so the package layer is built once and each instance adds
only its own small setup layer.

    python benchmarks/terminal-families/generate.py            # rewrite the suite in place
    python benchmarks/terminal-families/generate.py --check    # exit 1 if the committed suite differs
    python benchmarks/terminal-families/generate.py --out DIR --only FAMILY ...   # a part, elsewhere

The script imports nothing of adaptive_skill: the suite is data, and the generator is its source.
"""

from __future__ import annotations

import argparse
import filecmp
import importlib.util
import shutil
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIN_INSTANCES = 8

DOCKERFILE = (  # the package layer is terminal-easy's, to the byte: built once for both suites
    "FROM debian:bookworm-slim\n"
    "RUN apt-get update && apt-get install -y --no-install-recommends python3 git sqlite3 gawk procps xz-utils"
    " && rm -rf /var/lib/apt/lists/*\n"
    "WORKDIR /app\n"
    "COPY setup.sh /tmp/setup.sh\n"
    "RUN bash /tmp/setup.sh && rm /tmp/setup.sh\n"
)

TEST_SH = """\
#!/bin/bash
# Verifier: runs the checks in check.py and writes the reward (1 pass, 0 fail).
mkdir -p /logs/verifier
cd /app 2>/dev/null || true
if python3 /tests/check.py; then
  echo "RESULT: PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "RESULT: FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""

CHECK_PRELUDE = '''\
import csv
import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def read(path):
    """The file's text, or None when it is missing or not a regular file."""
    try:
        if not os.path.isfile(path) or os.path.islink(path):
            return None
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except OSError:
        return None


def lines(path):
    """The file's lines without their line ends (trailing empty lines dropped), or None."""
    text = read(path)
    if text is None:
        return None
    out = text.replace("\\r\\n", "\\n").split("\\n")
    while out and out[-1] == "":
        out.pop()
    return out


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def sh(command, cwd=None):
    """Run a verifier command (as root, not the agent's code); its stdout, stripped."""
    return subprocess.run(command, shell=True, capture_output=True, text=True, cwd=cwd).stdout.strip()


def staged(*paths):
    """Copies of the agent's files in a fresh directory nobody may write, readable by `nobody`."""
    where = tempfile.mkdtemp(prefix="verify-")
    os.chmod(where, 0o755)
    for path in paths:
        target = os.path.join(where, os.path.basename(path))
        shutil.copyfile(path, target)
        os.chmod(target, 0o755)
    return where


def run_as_nobody(argv, cwd="/tmp"):
    """Run the agent's program as user nobody, so it cannot touch the reward file; 10 s limit."""
    try:
        return subprocess.run(["runuser", "-u", "nobody", "--", *argv], capture_output=True, text=True,
                              cwd=cwd, timeout=10)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, 124, "", "timed out")


def query(db, sql):
    """Rows of a query on an sqlite database (the verifier's own connection), or None on error."""
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute(sql).fetchall()
    except sqlite3.Error:
        return None


'''

TASK_TOML = """\
version = "1.0"

[metadata]
difficulty = "easy"
category = "{category}"
tags = [{tags}]
author = "adaptive-skill"
family = "{family}"
# catches: {slip}

[agent]
timeout_sec = 300

[verifier]
timeout_sec = 60

[environment]
cpus = 1
memory_mb = 512
allow_internet = false
build_timeout_sec = 600
"""


@dataclass
class Instance:
    """One task of a family. `key` is unique within the family (the task id is FAMILY-KEY)."""

    key: str
    instruction: str
    setup: str  # bash run as root at image build, in /app: the starting files
    solve: str  # bash: the reference solution (the oracle)
    checks: str  # python run by the verifier after the prelude: calls check(condition, message)
    tags: tuple[str, ...] = ()


@dataclass
class Family:
    name: str
    category: str
    recipe: str  # the command shape that solves every instance, for the README
    slip: str  # the mistake the family is written to catch
    instances: list[Instance] = field(default_factory=list)


def load_families(only: list[str] | None = None) -> list[Family]:
    families: list[Family] = []
    for path in sorted((HERE / "_families").glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"families_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        families.extend(module.FAMILIES)
    names = [f.name for f in families]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise SystemExit(f"generate.py: families defined twice: {', '.join(duplicated)}")
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SystemExit(f"generate.py: no such family: {', '.join(unknown)}")
        families = [f for f in families if f.name in only]
    for family in families:
        problems = check_family(family)
        if problems:
            raise SystemExit(f"generate.py: family {family.name}: " + "; ".join(problems))
    return families


def check_family(family: Family) -> list[str]:
    problems = []
    keys = [i.key for i in family.instances]
    if len(keys) < MIN_INSTANCES:
        problems.append(f"{len(keys)} instances, at least {MIN_INSTANCES} wanted")
    if len(set(keys)) != len(keys):
        problems.append("two instances share a key")
    texts = [i.instruction.strip() for i in family.instances]
    if len(set(texts)) != len(texts):
        problems.append("two instances share an instruction")
    for instance in family.instances:
        if not instance.key.replace("-", "").isalnum() or instance.key != instance.key.lower():
            problems.append(f"key {instance.key!r} is not lowercase letters, digits and dashes")
    return problems


def task_id(family: Family, instance: Instance) -> str:
    return f"{family.name}-{instance.key}"


def _write(path: Path, text: str, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755 if executable else 0o644)


def _body(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def write_task(root: Path, family: Family, instance: Instance) -> None:
    task = root / task_id(family, instance)
    tags = ", ".join(f'"{t}"' for t in (instance.tags or (family.name,)))
    _write(task / "task.toml", TASK_TOML.format(category=family.category, tags=tags, family=family.name,
                                                slip=" ".join(family.slip.split())))
    _write(task / "instruction.md", _body(instance.instruction))
    _write(task / "environment" / "Dockerfile", DOCKERFILE)
    _write(task / "environment" / "setup.sh", "#!/bin/bash\nset -e\ncd /app\n" + _body(instance.setup), True)
    _write(task / "solution" / "solve.sh", "#!/bin/bash\nset -e\n" + _body(instance.solve), True)
    _write(task / "tests" / "test.sh", TEST_SH, True)
    _write(task / "tests" / "check.py", CHECK_PRELUDE + _body(instance.checks) + "\nsys.exit(1 if FAILS else 0)\n")


def families_toml(families: list[Family]) -> str:
    out = ["# Generated by generate.py from _families/*.py: edit those and run it again.",
           "# Each family is one recipe; its instances differ in paths, names, values, formats and wording.",
           "", "[families]"]
    for family in families:
        out.append(f"# {' '.join(family.recipe.split())}")
        ids = ", ".join(f'"{task_id(family, i)}"' for i in family.instances)
        out.append(f"{family.name} = [{ids}]")
    return "\n".join(out) + "\n"


def write_suite(root: Path, families: list[Family]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for family in families:
        for instance in family.instances:
            write_task(root, family, instance)
    _write(root / "families.toml", families_toml(families))


def generated_entries(root: Path) -> list[Path]:
    """The suite's generated files: task directories and families.toml (not the README, this script,
    the family sources or measured records)."""
    return sorted(p for p in root.iterdir() if (p / "task.toml").is_file()) + [root / "families.toml"]


def differs(expected: Path, actual: Path) -> list[str]:
    """Paths, relative to the suite, where the committed suite and a fresh generation differ."""
    out = []
    want = {p.name for p in generated_entries(expected)}
    have = {p.name for p in generated_entries(actual)} if actual.is_dir() else set()
    out += [f"missing: {n}" for n in sorted(want - have)] + [f"not generated: {n}" for n in sorted(have - want)]
    for name in sorted(want & have):
        a, b = expected / name, actual / name
        if a.is_file():
            if not filecmp.cmp(a, b, shallow=False):
                out.append(f"differs: {name}")
            continue
        for path in sorted(a.rglob("*")):
            other = b / path.relative_to(a)
            if path.is_file() and (not other.is_file() or not filecmp.cmp(path, other, shallow=False)
                                   or (path.stat().st_mode & 0o111) != (other.stat().st_mode & 0o111)):
                out.append(f"differs: {path.relative_to(expected)}")
        extra = {p.relative_to(b) for p in b.rglob("*") if p.is_file()} - {
            p.relative_to(a) for p in a.rglob("*") if p.is_file()}
        out += [f"not generated: {name}/{p}" for p in sorted(extra)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write the suite (default: beside this file)")
    parser.add_argument("--only", nargs="+", metavar="FAMILY", help="only these families")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the suite at --out differs")
    args = parser.parse_args(argv)
    families = load_families(args.only)
    if args.check:
        with tempfile.TemporaryDirectory() as scratch:
            write_suite(Path(scratch), families)
            problems = differs(Path(scratch), args.out)
        for line in problems:
            print(line)
        print(f"{len(problems)} difference(s)" if problems else "the suite matches its definitions")
        return 1 if problems else 0
    if args.out == HERE and not args.only:  # a whole rewrite: stale task directories go
        for path in generated_entries(HERE)[:-1]:
            shutil.rmtree(path)
    write_suite(args.out, families)
    count = sum(len(f.instances) for f in families)
    print(f"wrote {count} tasks in {len(families)} families to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
