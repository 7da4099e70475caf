"""The evolver's output checked in code: permissions, budget, quality gate, memory, reverts."""

import shutil
from pathlib import Path

import pytest

from adaptive_skill.config import EvolveConfig
from adaptive_skill.evolve.relevance import Failures
from adaptive_skill.evolve.rules import check, diff_trees, revert, workspace_hash

REPO = Path(__file__).resolve().parents[1]
GOOD = "---\nname: {name}\ndescription: Use when {name} is needed.\n---\n## Steps\n1. go\n## Verification\n- ok\n"


@pytest.fixture
def trees(tmp_path):
    before = tmp_path / "before"
    shutil.copytree(REPO / "workspace", before)
    after = tmp_path / "after"
    shutil.copytree(before, after)
    return before, after


def add_skill(root: Path, name: str, text: str | None = None) -> None:
    (root / "skills" / name).mkdir(parents=True, exist_ok=True)
    (root / "skills" / name / "SKILL.md").write_text(text if text is not None else GOOD.format(name=name))


def rules(violations):
    return sorted(v.rule for v in violations)


def test_clean_creation_passes(trees):
    before, after = trees
    add_skill(after, "git-recovery")
    changes, violations = check(before, after, EvolveConfig())
    assert violations == [] and changes.created_skills == ["git-recovery"]
    assert workspace_hash(before) != workspace_hash(after)


def test_refinement_counts_as_mutation(trees):
    before, after = trees
    skill = after / "skills" / "check-your-work" / "SKILL.md"
    skill.write_text(skill.read_text().replace("## Verification", "## Also\n- more\n\n## Verification"))
    changes, violations = check(before, after, EvolveConfig())
    assert violations == [] and changes.modified_skills == ["check-your-work"] and not changes.empty


def test_budget_is_enforced_in_code(trees):
    before, after = trees
    for name in ("a-skill", "b-skill", "c-skill"):
        add_skill(after, name)
    _, violations = check(before, after, EvolveConfig(max_skills=2))
    assert rules(violations) == ["budget"]
    assert violations[0].paths == ["skills/b-skill", "skills/c-skill"]  # 4 skills, budget 2: two undone
    revert(violations, before, after)
    assert sorted(p.name for p in (after / "skills").iterdir()) == ["a-skill", "check-your-work"]
    assert check(before, after, EvolveConfig(max_skills=2))[1] == []


def test_quality_gate(trees):
    before, after = trees
    add_skill(after, "bad-skill", "---\nname: other\ndescription: stuff\n---\nno verification\n")
    add_skill(after, "long-skill", GOOD.format(name="long-skill") + "x" * 3000)
    _, violations = check(before, after, EvolveConfig())
    assert rules(violations) == ["quality", "quality"]
    revert(violations, before, after)
    assert not (after / "skills" / "bad-skill").exists() and not (after / "skills" / "long-skill").exists()


@pytest.mark.parametrize("switches,area,rule", [
    ({"evolve_skills": False}, "skills", "permission"),
    ({"evolve_prompts": False}, "prompts", "permission"),
    ({"evolve_memory": False}, "memory", "permission"),
    ({"prompt_only": True}, "skills", "permission"),
    ({"protect_skills": True}, "existing-skill", "protected"),
])
def test_permissions(trees, switches, area, rule):
    before, after = trees
    if area == "skills":
        add_skill(after, "new-skill")
    elif area == "prompts":
        (after / "prompts" / "system.md").write_text("changed")
    elif area == "memory":
        (after / "memory" / "notes.jsonl").write_text('{"a": 1}\n')
    else:
        (after / "skills" / "check-your-work" / "SKILL.md").write_text(GOOD.format(name="check-your-work"))
    _, violations = check(before, after, EvolveConfig(**switches))
    assert rules(violations) == [rule] and not violations[0].repairable
    revert(violations, before, after)
    assert diff_trees(before, after).empty


def test_protect_skills_still_allows_new_ones(trees):
    before, after = trees
    add_skill(after, "new-skill")
    assert check(before, after, EvolveConfig(protect_skills=True))[1] == []


def test_outside_changes_and_bad_prompt_and_memory(trees):
    before, after = trees
    (after / "evil.sh").write_text("rm -rf /")
    (after / "prompts" / "system.md").write_text("{% if %}")
    (after / "memory" / "x.jsonl").write_text("not json\n")
    (after / "memory" / "x.txt").write_text("hi")
    _, violations = check(before, after, EvolveConfig())
    assert rules(violations) == ["memory", "memory", "outside", "prompt"]  # the load check does not repeat them
    revert(violations, before, after)
    assert diff_trees(before, after).empty


INSTALLING = ("---\nname: {name}\ndescription: Use when jq says command not found.\n---\n## Steps\n"
              "1. {step}\n2. Run the command again.\n## Verification\n- The output file exists.\n")


@pytest.mark.parametrize("step", ["apt-get install -y jq", "Install jq: `pip install jq`", "`curl -sO https://x/jq`",
                                  # the quickstart of 2026-11-27: the program in a code span after "Install"
                                  "Install `jq` in the container using the `python3-pip` package manager.",
                                  # run 13, cycle 3: the install inside a sentence
                                  "The task can be completed after converting the container to a git repository "
                                  "by installing git and configuring it."])
@pytest.mark.parametrize("allow_network", [False, True])
def test_a_skill_that_installs_breaks_a_rule_only_without_a_network(trees, step, allow_network):
    """Every evolver mode goes through check(): with sandbox.allow_network off (the default) a skill
    line that installs or downloads, in a list item or in backticks, is a quality violation (repairable:
    the evolver is asked to fix it, then it is reverted); with the network on it is a skill like any other."""
    before, after = trees
    add_skill(after, "jq-missing", INSTALLING.format(name="jq-missing", step=step))
    _, violations = check(before, after, EvolveConfig(sandbox={"allow_network": allow_network}))
    if allow_network:
        assert violations == []
    else:
        assert rules(violations) == ["quality"] and violations[0].repairable
        assert violations[0].paths == ["skills/jq-missing"] and "installs or downloads" in violations[0].message


@pytest.mark.parametrize("step", ["If jq is not installed, run `python3 -m json.tool FILE`.",
                                  "Do not install anything: the containers have no network.",
                                  "Check which programs are installed: `command -v python3 jq`."])
def test_a_step_that_names_installed_programs_or_warns_is_no_install(trees, step):
    before, after = trees
    add_skill(after, "jq-missing", INSTALLING.format(name="jq-missing", step=step))
    assert check(before, after, EvolveConfig())[1] == []


def test_only_the_lines_a_change_adds_are_held_against_it(trees):
    """A skill that already told the agent to install something is not blocked from every other edit."""
    before, after = trees
    add_skill(before, "jq-missing", INSTALLING.format(name="jq-missing", step="apt-get install -y jq"))
    add_skill(after, "jq-missing", INSTALLING.format(name="jq-missing", step="apt-get install -y jq")
              + "- python3 -m json.tool reads the file.\n")
    changes, violations = check(before, after, EvolveConfig())
    assert changes.modified_skills == ["jq-missing"] and violations == []


@pytest.mark.parametrize("step", ["jq .port /app/config.json", "`jq .port /app/config.json`",
                                  "Read it: `jq  .port   /app/config.json`", "$ jq .port /app/config.json"])
def test_a_skill_that_teaches_a_failed_command_breaks_a_rule(trees, step):
    """Run 10: the 1.5B's skill for 'jq: command not found' was the failed jq commands themselves. A skill
    line (or code span) that is a command the record shows failing, whitespace aside, is a violation;
    without that record the same skill passes."""
    before, after = trees
    add_skill(after, "read-json", INSTALLING.format(name="read-json", step=step))
    failures = Failures(commands=frozenset({"jq .port /app/config.json"}))
    _, violations = check(before, after, EvolveConfig(), failures=failures)
    assert rules(violations) == ["quality"] and "failed in the record" in violations[0].message
    assert check(before, after, EvolveConfig())[1] == []


def test_the_rules_step_reverts_an_install_the_repair_did_not_remove(trees):
    """enforce_rules (shared by the shell, team and structured evolvers): one repair; an install still
    there afterwards is reverted, and settle() leaves the workspace as it was."""
    from adaptive_skill.evolve.evolver import enforce_rules, settle
    from adaptive_skill.evolve.outcome import Changes, EvolveOutcome

    before, after = trees
    add_skill(after, "jq-missing", INSTALLING.format(name="jq-missing", step="apt-get install -y jq"))
    asked: list[list[str]] = []
    outcome = EvolveOutcome(changes=Changes())
    enforce_rules(before, after, EvolveConfig(), outcome, lambda found: asked.append([v.message for v in found]))
    settle(before, after, EvolveConfig(), outcome)
    assert len(asked) == 1 and "installs or downloads" in asked[0][0]
    assert [v.rule for v in outcome.reverted] == ["quality"] and not outcome.mutated
    assert not (after / "skills" / "jq-missing").exists()


def test_the_failures_are_those_the_digest_shows(tmp_path):
    """The record every mode is held to is the structured evolver's digest of the observations: its
    failed commands, failed tasks and the files their instructions name."""
    from adaptive_skill.evolve.evolver import shown_failures

    folder = tmp_path / "obs" / "read-port"
    folder.mkdir(parents=True)
    (folder / "instruction.md").write_text("Write the port from /app/config.json to /app/port.txt.")
    (folder / "trajectory.txt").write_text(
        "Trajectory: status submitted; 2 turns\n\n## Errors (1)\nstep 1 $ jq .port /app/config.json\n"
        "  -> error exit 127\n  | bash: jq: command not found\n")
    (folder / "verdict.json").write_text('{"score": 2, "failure_reason": "jq is not installed"}')
    failures = shown_failures(tmp_path / "obs", EvolveConfig())
    assert "jq .port /app/config.json" in failures.commands
    assert failures.tasks == {"read-port"} and failures.paths == {"/app/config.json", "/app/port.txt"}
    (folder / "verdict.json").write_text('{"score": 9}')
    assert shown_failures(tmp_path / "obs", EvolveConfig()) == Failures()


SPECIFIC = ("---\nname: {name}\ndescription: {description}\n---\n## Steps\n1. {step}\n"
            "## Verification\n- git branch lists the new branch.\n")


@pytest.mark.parametrize(("name", "description", "step", "reason"), [
    # the quickstart of 2026-11-27's skill, as a shell or team evolver could write it
    ("git-branch-feature", "Use when git says not a git repository.", "cd into the repository, then git checkout -b",
     "names the task(s) git-branch-feature"),
    ("branch-outside-repo", "Use when creating a branch in /app/repo fails.", "cd into the repository first",
     "names the failed tasks' own files (/app/repo)"),
    ("branch-outside-repo", "Use when git says not a git repository.", "Run `git -C /APP/REPO checkout -b NAME`.",
     "names the failed tasks' own files (/app/repo)"),
])
def test_a_skill_of_any_mode_naming_a_failed_task_or_its_files_breaks_a_rule(trees, name, description, step, reason):
    """Not only the structured evolver's refusal: the rules step every mode goes through holds a skill to
    the failures it was shown. A general skill, or the same without that record, passes; a path of the
    system's own (/etc/gitconfig) is not a task's file and never in the record."""
    before, after = trees
    add_skill(after, name, SPECIFIC.format(name=name, description=description, step=step))
    failures = Failures(tasks=frozenset({"git-branch-feature"}), paths=frozenset({"/app/repo"}))
    _, violations = check(before, after, EvolveConfig(), failures=failures)
    assert rules(violations) == ["quality"] and reason in violations[0].message and violations[0].repairable
    assert check(before, after, EvolveConfig())[1] == []
    general = SPECIFIC.format(name="branch-outside-repo", description="Use when git says not a git repository.",
                              step="cd into the repository the task names (see /etc/gitconfig), then git checkout -b")
    shutil.rmtree(after / "skills" / name)
    add_skill(after, "branch-outside-repo", general)
    assert check(before, after, EvolveConfig(), failures=failures)[1] == []


def test_an_existing_skill_keeps_its_name_and_lines_a_change_did_not_add(trees):
    """Only what a change adds is held against it: a seed skill whose name or old lines contain a
    failed task's id is edited freely; a new line naming the task's file is not."""
    before, after = trees
    old = SPECIFIC.format(name="count-log-lines", description="Use when counting lines in a log.", step="wc -l FILE")
    add_skill(before, "count-log-lines", old)
    add_skill(after, "count-log-lines", old + "- the count is one number.\n")
    failures = Failures(tasks=frozenset({"count-log-lines"}), paths=frozenset({"/app/app.log"}))
    assert check(before, after, EvolveConfig(), failures=failures)[1] == []
    add_skill(after, "count-log-lines", old + "- compare with wc -l /app/app.log\n")
    (violation,) = check(before, after, EvolveConfig(), failures=failures)[1]
    assert "/app/app.log" in violation.message and "names the task" not in violation.message
