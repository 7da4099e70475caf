"""The CLI as a user meets it: exit codes, one-line errors, commands over a real git workspace."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, timeout=120)


def test_help_lists_commands_and_imports_nothing_heavy():
    code = ("import sys; from adaptive_skill.cli import build_parser; build_parser().format_help(); "
            "heavy = {'litellm', 'docker', 'numpy', 'pydantic', 'git', 'yaml', 'rich', 'jinja2'} & "
            "{m.split('.')[0] for m in sys.modules}; print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"
    result = cli("--help")
    assert result.returncode == 0
    for command in ("evolve", "config", "skills", "tasks", "run", "images", "sandbox"):
        assert command in result.stdout


def test_evolve_script_help():
    from adaptive_skill.cli import evolve_main

    with pytest.raises(SystemExit) as exit_info:
        evolve_main(["--help"])
    assert exit_info.value.code == 0


def test_config_check_ok():
    result = cli("config", "check", "configs/cycle.yaml")
    assert result.returncode == 0, result.stderr
    assert "max_skills: 5" in result.stdout and "holdout_ratio: 0.2" in result.stdout


def test_config_check_unknown_key_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("batch_size: 3\nmystery_knob: 1\n")
    result = cli("config", "check", str(bad))
    assert result.returncode == 2
    assert result.stderr == f"error: {bad}:2: mystery_knob: unknown key\n"
    assert result.stdout == ""


def test_config_check_syntax_error_and_set(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n")
    result = cli("config", "check", str(bad))
    assert result.returncode == 2 and "YAML syntax error" in result.stderr and "Traceback" not in result.stderr
    ok = cli("config", "check", "configs/cycle.yaml", "--set", "gating.max_rounds=12")
    assert ok.returncode == 0 and "max_rounds: 12" in ok.stdout
    wrong = cli("config", "check", "configs/cycle.yaml", "--set", "gating.max_rounds=lots")
    assert wrong.returncode == 2 and wrong.stderr.startswith("error: --set gating.max_rounds=lots:")


def test_verbose_shows_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("nope: 1\n")
    result = cli("--verbose", "config", "check", str(bad))
    assert result.returncode != 0 and "Traceback" in result.stderr


def test_config_check_never_prints_secrets(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("models:\n  agent:\n    api_key: ${TEST_SECRET_KEY}\n")
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "config", "check", str(path)],
                            capture_output=True, text=True, env={"TEST_SECRET_KEY": "sk-zzz", "PATH": "/usr/bin"})
    assert result.returncode == 0, result.stderr
    assert "sk-zzz" not in result.stdout and "<redacted>" in result.stdout


def test_skills_check(tmp_path):
    assert cli("skills", "check", "workspace/skills").returncode == 0
    bad = tmp_path / "skills" / "bad-skill"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: other\ndescription: things\n---\n")
    result = cli("skills", "check", str(tmp_path / "skills"))
    assert result.returncode == 2
    assert "differs from its directory name" in result.stdout and "say when" in result.stdout
    assert "problems found" in result.stdout


@pytest.fixture
def versioned(tmp_path) -> Path:
    from adaptive_skill.versioning import WorkspaceRepo
    from adaptive_skill.workspace import copy_workspace

    root = tmp_path / "ws"
    copy_workspace(REPO / "workspace", root)
    repo = WorkspaceRepo.init(root)
    repo.tag("evo-1", {"holdout_mean": 5.0}, summary="seed")
    skill = root / "skills" / "git-recovery"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: git-recovery\ndescription: Use when commits are lost.\n---\n"
                                    "## Steps\n1. git reflog\n## Verification\n- git log shows it\n")
    repo.snapshot("cycle 2")
    repo.tag("evo-2", {"holdout_mean": 6.5}, summary="accepted")
    return root


def test_skills_list_show_diff_log(versioned):
    listing = cli("skills", "list", "--workspace", str(versioned), "--format", "json")
    assert [s["name"] for s in json.loads(listing.stdout)] == ["check-your-work", "git-recovery"]
    at_tag = cli("skills", "list", "--workspace", str(versioned), "--tag", "evo-1", "--format", "json")
    assert [s["name"] for s in json.loads(at_tag.stdout)] == ["check-your-work"]
    show = cli("skills", "show", "git-recovery", "--workspace", str(versioned), "--tag", "evo-2")
    assert show.returncode == 0 and "git reflog" in show.stdout
    missing = cli("skills", "show", "git-recovery", "--workspace", str(versioned), "--tag", "evo-1")
    assert missing.returncode == 2 and missing.stderr.startswith("error: skills/git-recovery/SKILL.md does not exist")
    diff = cli("skills", "diff", "evo-1", "evo-2", "--workspace", str(versioned))
    assert "+name: git-recovery" in diff.stdout
    log = json.loads(cli("skills", "log", "--workspace", str(versioned), "--format", "json").stdout)
    assert [(t["tag"], t["metrics"]) for t in log["tags"]] == [("evo-1", {"holdout_mean": 5.0}),
                                                               ("evo-2", {"holdout_mean": 6.5})]
    assert log["decisions"] == []  # a bare workspace has no run, so no gate decisions
    table = cli("skills", "log", "--workspace", str(versioned))
    assert "evo-2" in table.stdout and "holdout_mean=6.5" in table.stdout


def test_skills_run_dir_and_bad_input(versioned, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    versioned.rename(run / "workspace")
    assert cli("skills", "log", "--run", str(run), "--format", "json").returncode == 0
    for args, fragment in [
        (("skills", "show", "../../etc", "--run", str(run)), "not a valid skill name"),
        (("skills", "diff", "evo-1", "evo-9", "--run", str(run)), "unknown tag or commit 'evo-9'"),
        (("skills", "log", "--run", str(tmp_path / "nope")), "no such run directory"),
        (("skills", "list", "--workspace", str(tmp_path)), "not a versioned"),
    ]:
        if args[1] == "list":
            args = ("skills", "list", "--workspace", str(tmp_path), "--tag", "evo-1")
        result = cli(*args)
        assert result.returncode == 2 and fragment in result.stderr and "Traceback" not in result.stderr, args


def test_evolve_validates_config_first(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("batch_size: 0\n")
    result = subprocess.run([str(Path(sys.executable).parent / "evolve"), "--config", str(bad)],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "batch_size" in result.stderr


def test_ci_runs_the_readme_test_command():
    readme = (REPO / "README.md").read_text()
    command = next(line.strip() for line in readme.splitlines() if line.strip().endswith(".venv/bin/pytest"))
    assert command in (REPO / ".ci" / "run").read_text()


def test_the_set_example_in_every_help_is_a_key_that_exists():
    """The --set help's example is copied by users: it must name a real key (it once named
    gating.margin, long gone, and gave "unknown key")."""
    import re

    result = cli("config", "check", "--help")
    example = re.search(r"e\.g\. --set (\S+)", " ".join(result.stdout.split())).group(1)
    checked = cli("config", "check", "configs/quickstart.yaml", "--set", example)
    assert checked.returncode == 0, checked.stderr


def test_skills_log_reads_a_runs_gate_decisions_and_skips_what_it_cannot_read(tmp_path):
    """skills log --run lists each gated change with the gate's evidence; an ungated cycle, a torn or
    odd gate.json, a stray folder under cycles/ and an evolve.json whose summary is not text are
    skipped or shown without it, never a crash."""
    from adaptive_skill.commands.skills import _gate_decisions
    from adaptive_skill.engine.records import GateResult

    cycles = tmp_path / "cycles"
    gated = GateResult(accepted=True, reason="LLR 2.6 >= 2.5", gated=True, rounds=2, rollouts=8, mutated_mean=1.0,
                       baseline_mean=0.5, per_task=[{"task": "h1", "difference": 0.5}]).to_dict()
    files = {"001": {"gate.json": gated, "evolve.json": {"summary": "added zip-install"}},
             "002": {"gate.json": {"accepted": False, "reason": "no mutation to gate", "gated": False}},
             "003": {"gate.json": "{torn", "evolve.json": {"summary": "x"}},
             "004": {"gate.json": {"gated": True}},  # no fields: not a gate record
             "005": {"gate.json": gated, "evolve.json": {"summary": {"not": "text"}}},
             "7x": {"gate.json": gated}}
    for name, contents in files.items():
        (cycles / name).mkdir(parents=True)
        for file, data in contents.items():
            (cycles / name / file).write_text(data if isinstance(data, str) else json.dumps(data))
    decisions = _gate_decisions(tmp_path)
    assert [(d["cycle"], d["change"], d["accepted"]) for d in decisions] == [(1, "added zip-install", True),
                                                                             (5, None, True)]
    assert decisions[0]["evidence"] == GateResult.from_dict(gated).evidence()
    assert _gate_decisions(tmp_path / "no-such-run") == []
