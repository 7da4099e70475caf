"""A workspace that passes the rules can be loaded by the agent: every way an evolver (or a user)
can leave a workspace that would fail a solve is a load problem naming the file; the rules step
reverts it; the engine refuses such a seed; `skills check` on a workspace lists it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adaptive_skill.agent.loop import render_system_prompt
from adaptive_skill.config import EvolveConfig
from adaptive_skill.errors import UserError
from adaptive_skill.evolve.evolver import enforce_rules, settle
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.outcome import Changes, EvolveOutcome
from adaptive_skill.evolve.rules import diff_trees
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
GOOD = "---\nname: {name}\ndescription: Use when {name} is needed.\n---\n## Steps\n1. go\n## Verification\n- ok\n"


def write(root: Path, relative: str, data: str | bytes) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


# relative path written -> (content, the problem's path, words in its message)
CASES = {
    "stray file": ("skills/NOTES.md", "notes", "skills/NOTES.md", "stray file"),
    "no SKILL.md": ("skills/empty-skill/README.md", "hi", "skills/empty-skill", "SKILL.md is missing"),
    "empty SKILL.md": ("skills/blank/SKILL.md", "", "skills/blank", "must start with"),
    "binary SKILL.md": ("skills/bin/SKILL.md", b"---\nname: bin\n\x00\x01\x02", "skills/bin", "binary"),
    "non-UTF-8 SKILL.md": ("skills/latin/SKILL.md", b"---\nname: caf\xe9\n---\n", "skills/latin", "not UTF-8"),
    "non-UTF-8 prompt": ("prompts/system.md", b"caf\xe9 {{ x }}", "prompts/system.md", "UTF-8"),
    "binary prompt": ("prompts/system.md", b"hello\x00world", "prompts/system.md", "binary"),
    "empty prompt": ("prompts/system.md", "   \n", "prompts/system.md", "empty system prompt"),
    "jinja syntax error": ("prompts/system.md", "{% for s in skills %}oops", "prompts/system.md", "does not render"),
    "python internals": ("prompts/system.md", "Hi {{ ''.__class__ }}", "prompts/system.md", "'__class__'"),
    "internals by item": ("prompts/system.md", "{{ skills['__len__'] }} x", "prompts/system.md", "'__len__'"),
    "internals by filter": ("prompts/system.md", "{{ skills|attr('x') }} x", "prompts/system.md", "attr filter"),
    "undefined chain": ("prompts/system.md", "{{ nothing.at.all }} x", "prompts/system.md", "does not render"),
    "memory not an object": ("memory/notes.jsonl", '{"text": "ok"}\n[1, 2]\n', "memory/notes.jsonl",
                             "line 2: not a JSON object"),
    "memory not JSON": ("memory/notes.jsonl", "hello\n", "memory/notes.jsonl", "line 1: not valid JSON"),
    "memory not UTF-8": ("memory/notes.jsonl", b'{"text": "caf\xe9"}\n', "memory/notes.jsonl", "not UTF-8"),
}


@pytest.fixture
def workspace(tmp_path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(REPO / "workspace", root)
    return root


def test_the_seed_workspace_loads(workspace):
    assert load_problems(workspace) == []
    assert "check-your-work" in render_system_prompt(Workspace(workspace), native_tools=True)


@pytest.mark.parametrize("case", CASES)
def test_each_unloadable_workspace_is_named(workspace, case):
    relative, content, path, words = CASES[case]
    write(workspace, relative, content)
    problems = load_problems(workspace)
    assert [p.path for p in problems] == [path], problems
    assert words in problems[0].message


@pytest.mark.parametrize("case", CASES)
def test_the_rules_step_reverts_what_would_not_load(tmp_path, case):
    before = tmp_path / "before"
    shutil.copytree(REPO / "workspace", before)
    after = tmp_path / "after"
    shutil.copytree(before, after)
    relative, content, path, words = CASES[case]
    write(after, relative, content)
    outcome = EvolveOutcome(changes=Changes())
    repaired: list[str] = []

    def repair(violations):  # an evolver that does nothing in its repair turn
        repaired.extend(v.message for v in violations)

    enforce_rules(before, after, EvolveConfig(), outcome, repair)
    settle(before, after, EvolveConfig(), outcome)
    assert any(path in v.paths for v in outcome.violations)
    assert any(path in message for message in repaired)  # these get the repair turn
    assert load_problems(after) == []
    assert diff_trees(before, after).empty or relative.startswith("skills/empty-skill")


def test_settle_reverts_everything_when_the_result_still_would_not_load(tmp_path):
    before = tmp_path / "before"
    shutil.copytree(REPO / "workspace", before)
    after = tmp_path / "after"
    shutil.copytree(before, after)
    write(after, "skills/extra/SKILL.md", GOOD.format(name="extra"))
    for root in (before, after):  # `before` itself broken (a run from before the load check)
        write(root, "prompts/system.md", "{{ undefined_thing.attribute }} x")
    outcome = EvolveOutcome(changes=Changes())
    settle(before, after, EvolveConfig(), outcome)
    assert not outcome.mutated and outcome.reverted[-1].paths == ["prompts", "skills", "memory"]


def test_the_engine_refuses_an_unloadable_seed(workspace, tmp_path):
    from adaptive_skill.engine import AdaptiveSkillEngine

    write(workspace, "skills/NOTES.md", "notes")
    config = EvolveConfig.model_validate({"paths": {"workspace": str(workspace), "suite": str(tmp_path / "none"),
                                                    "runs_dir": str(tmp_path / "runs")}})
    with pytest.raises(UserError) as error:
        AdaptiveSkillEngine.start(config)
    assert str(error.value) == f"{workspace}/skills/NOTES.md: stray file in skills/: each skill is a directory"
    assert not (tmp_path / "runs").exists()


def test_cli_start_exits_2_with_one_line(workspace, tmp_path):
    write(workspace, "prompts/system.md", "{{ ''.__class__ }} hello")
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"paths": {"workspace": str(workspace), "suite": str(tmp_path / "s"),
                                                "runs_dir": str(tmp_path / "runs")}}))
    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "evolve", "--config", str(config)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "prompts/system.md" in done.stderr and "__class__" in done.stderr


def test_skills_check_on_a_workspace(workspace):
    def check():
        return subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "check", str(workspace)],
                              capture_output=True, text=True, timeout=120)

    done = check()
    assert done.returncode == 0 and done.stdout.strip() == f"{workspace}: ok"
    write(workspace, "memory/notes.jsonl", '"just a string"\n')
    write(workspace, "skills/NOTES.md", "notes")
    done = check()
    assert done.returncode == 2
    assert f"{workspace}/memory/notes.jsonl: line 1: not a JSON object" in done.stdout
    assert f"{workspace}/skills/NOTES.md: stray file" in done.stdout
    assert "2 problems found" in done.stdout
