"""SKILL.md validation: every rule, path safety, and a fuzzed parser that never crashes."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adaptive_skill.skills import (
    SkillFormatError,
    check_skill_dir,
    check_skills,
    frontmatter_problems,
    parse_skill_text,
)
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
GOOD_BODY = "## Steps\n1. Do the thing.\n\n## Verification\n- It worked.\n"


def skill_text(name="fix-builds", description="Use when a build fails.", body=GOOD_BODY, extra=""):
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"


def make_skill(root: Path, dirname: str, text: str) -> Path:
    path = root / dirname
    path.mkdir(parents=True)
    (path / "SKILL.md").write_text(text)
    return path


def messages(problems):
    return [p.message for p in problems]


def test_valid_skill(tmp_path):
    assert check_skill_dir(make_skill(tmp_path, "fix-builds", skill_text())) == []


def test_shipped_workspace_is_valid():
    assert Workspace(REPO / "workspace").problems() == []
    assert [s.name for s in Workspace(REPO / "workspace").skills()] == ["check-your-work"]


@pytest.mark.parametrize("name", ["Fix-Builds", "fix_builds", "-fix", "fix-", "fix--builds", "a" * 65, "fix builds"])
def test_bad_names(tmp_path, name):
    problems = frontmatter_problems({"name": name, "description": "Use when x."}, GOOD_BODY, dir_name=name)
    assert any("name" in m for m in problems)


def test_name_must_match_directory(tmp_path):
    problems = check_skill_dir(make_skill(tmp_path, "other-name", skill_text()))
    assert messages(problems) == ["name 'fix-builds' differs from its directory name 'other-name'"]


def test_description_rules():
    assert any("say when" in m for m in frontmatter_problems(
        {"name": "x", "description": "A skill about builds."}, GOOD_BODY, dir_name="x"))
    assert any("1024" in m for m in frontmatter_problems(
        {"name": "x", "description": "Use when " + "y" * 1100}, GOOD_BODY, dir_name="x"))
    assert any("description" in m for m in frontmatter_problems({"name": "x"}, GOOD_BODY, dir_name="x"))
    assert any("description" in m for m in frontmatter_problems(
        {"name": "x", "description": 42}, GOOD_BODY, dir_name="x"))


def test_body_limit_and_verification():
    long_body = GOOD_BODY + "x" * 2000
    assert any("limit is 2000" in m for m in frontmatter_problems(
        {"name": "x", "description": "Use when."}, long_body, dir_name="x"))
    assert frontmatter_problems({"name": "x", "description": "Use when."}, long_body, dir_name="x",
                                max_body_chars=5000) == []
    no_check = "## Steps\n1. go\n"
    assert any("Verification" in m for m in frontmatter_problems(
        {"name": "x", "description": "Use when."}, no_check, dir_name="x"))
    assert frontmatter_problems({"name": "x", "description": "Use when."}, no_check, dir_name="x",
                                require_verification=False) == []


def test_optional_fields_and_unknown_keys():
    data = {"name": "x", "description": "Use when.", "license": "MIT", "compatibility": "bash",
            "metadata": {"author": "me"}, "allowed-tools": "bash"}
    assert frontmatter_problems(data, GOOD_BODY, dir_name="x") == []
    assert any("unknown frontmatter key 'version'" in m for m in frontmatter_problems(
        {**data, "version": 2}, GOOD_BODY, dir_name="x"))
    assert any("metadata" in m for m in frontmatter_problems(
        {**data, "metadata": {"n": 1}}, GOOD_BODY, dir_name="x"))


@pytest.mark.parametrize("text,fragment", [
    ("no frontmatter", "must start with a '---'"),
    ("---\nname: x\n", "not closed"),
    ("---\n- a\n---\nbody", "must be a YAML mapping"),
    ("---\nname: [unclosed\n---\nbody", "not valid YAML"),
])
def test_parse_errors(text, fragment):
    with pytest.raises(SkillFormatError, match=fragment.replace("(", r"\(").replace("[", r"\[")):
        parse_skill_text(text)


def test_missing_skill_md_and_stray_files(tmp_path):
    skills = tmp_path / "skills"
    (skills / "empty-skill").mkdir(parents=True)
    (skills / "notes.txt").write_text("hi")
    make_skill(skills, "good-one", skill_text(name="good-one"))
    found = check_skills(skills)
    assert sorted(messages(found)) == ["SKILL.md is missing", "stray file in skills/: each skill is a directory"]


def test_every_problem_is_listed(tmp_path):
    text = "---\nname: Bad_Name\ndescription: nothing\nextra: 1\n---\n"
    problems = check_skill_dir(make_skill(tmp_path, "bad-name", text))
    assert len(problems) >= 4  # name pattern, name/dir mismatch, description, unknown key, empty body


def test_symlinks_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("x")
    skills = tmp_path / "ws" / "skills"
    skill = make_skill(skills, "fix-builds", skill_text())
    (skill / "scripts").mkdir()
    os.symlink(outside / "secret", skill / "scripts" / "leak")
    assert any("outside the workspace" in m for m in messages(check_skills(skills, root=tmp_path / "ws")))

    linked = skills / "linked-skill"
    os.symlink(skill, linked)
    assert any("must not be a symlink" in m for m in messages(check_skills(skills, root=tmp_path / "ws")))

    md_link = make_skill(tmp_path / "other", "md-link", "x")
    (md_link / "SKILL.md").unlink()
    os.symlink(skill / "SKILL.md", md_link / "SKILL.md")
    assert any("not a symlink" in m for m in messages(check_skill_dir(md_link)))


def test_workspace_skill_lookup_checks_name(tmp_path):
    ws = tmp_path / "ws"
    (ws / "prompts").mkdir(parents=True)
    (ws / "prompts" / "system.md").write_text("hi")
    make_skill(ws / "skills", "fix-builds", skill_text())
    workspace = Workspace(ws)
    assert workspace.skill("fix-builds").description == "Use when a build fails."
    from adaptive_skill.errors import SkillError

    for bad in ("../prompts", "/etc/passwd", "fix-builds/../x"):
        with pytest.raises(SkillError, match="not a valid skill name"):
            workspace.skill(bad)
    with pytest.raises(SkillError, match="no skill named"):
        workspace.skill("other")


# -- fuzzing: the parser and validator accept or reject, never crash --------------------------

yaml_ish = st.text(alphabet=st.sampled_from(list("-:\n []{}'\"#&*!|>%@`,?abcxyz019 \t\\")), max_size=200)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), yaml_ish, yaml_ish.map(lambda s: "---\n" + s + "\n---\nbody")))
def test_fuzz_parser_never_crashes(text):
    try:
        data, body = parse_skill_text(text)
    except SkillFormatError:
        return
    assert isinstance(data, dict) and isinstance(body, str)
    problems = frontmatter_problems(data, body, dir_name="x")
    assert all(isinstance(p, str) for p in problems)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=80), description=st.text(max_size=1200), body=st.text(max_size=2500))
def test_fuzz_fields_never_crash(tmp_path, name, description, body):
    import yaml

    header = yaml.safe_dump({"name": name, "description": description})
    try:
        data, parsed_body = parse_skill_text(f"---\n{header}---\n{body}")
    except SkillFormatError:
        return
    problems = frontmatter_problems(data, parsed_body, dir_name="x")
    if not problems:  # whatever passed must really meet the rules
        assert data["name"] == "x" and len(parsed_body) <= 2000


def test_render_skill_keeps_the_front_matter_closed_whatever_the_parts_hold():
    from adaptive_skill.skills import render_skill

    # YAML's own syntax (": ", "#", quotes, "---") in a value: written quoted, read back as it was
    description = "Use when " + "x" * 70 + " --- name: evil #: '\" {{ x }}" + " ---" * 30
    text = render_skill("a-skill", description, ["---", "## Verification"], ["---"])
    data, body = parse_skill_text(text)
    assert data == {"name": "a-skill", "description": description}
    assert [line for line in body.splitlines() if line.startswith("#")] == ["## Steps", "## Verification"]
    assert "\n1. ---\n2. ## Verification\n" in body and body.endswith("\n- ---\n")
    with pytest.raises(ValueError, match="single lines"):
        render_skill("a-skill", "Use when\nname: x", ["a"], ["b"])
