"""The report of a real run: the engine runs three cycles in Docker with scripted models (one
mutation accepted, one rejected, one budget repair, a looping task the spiral monitor nudges, an
agent output that tries to inject markup), then `adaptive-skill report` reads the run directory,
also after a crash tore its last event line."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from taskfactory import make_task

from adaptive_skill.report import build, render_html, render_markdown

REPO = Path(__file__).resolve().parents[1]
INJECTION = "</script><img src=x onerror=alert(1)>"


def bash(command, **extra):
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}], **extra}


def submit(answer, **extra):
    return {"tool_calls": [{"name": "submit", "arguments": {"answer": answer}}], **extra}


def skill(name):
    return (f"mkdir -p /workspace/skills/{name} && cat > /workspace/skills/{name}/SKILL.md <<'EOF'\n---\n"
            f"name: {name}\ndescription: Use when writing answer files for tasks.\n---\n## Steps\n1. Write it.\n"
            "## Verification\n- cat the file\nEOF")


AGENT_USE = {"usage": {"prompt_tokens": 120, "completion_tokens": 15}, "cost": 0.0012}
JUDGE_USE = {"usage": {"prompt_tokens": 400, "completion_tokens": 40}, "cost": 0.002}
EVOLVER_USE = {"usage": {"prompt_tokens": 900, "completion_tokens": 90}, "cost": 0.01}
AGENT = [  # behaviour depends on the skills in the system prompt and on the task
    {"when": r"\[loop monitor\]", **submit("gave up", **AGENT_USE)},
    {"when": "keep polling", **bash("cat /app/status.txt", **AGENT_USE)},  # loops until the monitor nudges
    {"when": r"\[exit code", **submit("done", **AGENT_USE)},
    {"when": "shortcut-hacks", **bash("echo BAD > /app/answer.txt", **AGENT_USE)},
    {"when": "careful-checks", **bash("echo 42 > /app/answer.txt && echo GOOD", **AGENT_USE)},
    bash(f"echo '{INJECTION} PLAIN'", **AGENT_USE),
]
JUDGE = [
    {"when": "echo BAD", "content": {"score": 2, "category": "file-operations", "outcome": "Wrote a wrong answer.",
                                     "failure_reason": "took a shortcut"}, **JUDGE_USE},
    {"when": "GOOD", "content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer.",
                                 "failure_reason": None}, **JUDGE_USE},
    {"content": {"score": 5, "category": "file-operations", "outcome": "Printed something and stopped.",
                 "failure_reason": "never wrote the answer file"}, **JUDGE_USE},
]
EVOLVER = [
    {"when": r"\[exit code", **submit("updated the library", **EVOLVER_USE)},
    {"when": "exceed the budget", **bash("rm -rf /workspace/skills/extra-*", **EVOLVER_USE)},
    {"when": "rejected by gating", **bash(skill("extra-one") + "\n" + skill("extra-two"), **EVOLVER_USE)},
    {"when": r"Skills now \(2", **bash(skill("shortcut-hacks"), **EVOLVER_USE)},
    {"when": r"Skills now \(1", **bash(skill("careful-checks"), **EVOLVER_USE)},
]


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory, docker_client, base_image):
    """A finished three-cycle run of the real engine (Docker, scripted models), made once per test
    session although two test modules use this fixture."""
    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine
    from adaptive_skill.progress import Display

    root = tmp_path_factory.getbasetemp() / "report-run"
    if (root / "runs" / "overnight" / "report-ready").exists():
        return root / "runs" / "overnight"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    suite = root / "suite"
    for index in range(6):
        make_task(suite, f"task-{index}")
    (suite / "task-5" / "instruction.md").write_text(
        "Wait for the service: keep polling /app/status.txt until it says ready, then write 42 to /app/answer.txt.")
    models = {}
    for role, script in (("agent", AGENT), ("judge", JUDGE), ("evolver", EVOLVER)):
        path = root / f"{role}.yaml"
        path.write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{path}"}
    config = {"max_skills": 3, "batch_size": 2, "holdout_ratio": 0.34, "max_cycles": 3, "workers": 2, "seed": 1,
              "paths": {"workspace": str(REPO / "workspace"), "suite": str(suite), "runs_dir": str(root / "runs")},
              "models": models, "limits": {"max_steps": 8},
              # the scripted single evolver, no explore phase (not the learning setup's defaults)
              "evolver": {"mode": "single"}, "explore": {"passes": 0}, "skill_in_prompt_tokens": 0}
    (root / "cycle.yaml").write_text(yaml.safe_dump(config))
    engine = AdaptiveSkillEngine.start(load_config(root / "cycle.yaml"), run_id="overnight",
                                       display=Display(mode="quiet"))
    assert engine.run() == "max_cycles"
    (engine.run_dir.root / "report-ready").touch()
    return engine.run_dir.root


pytestmark = pytest.mark.docker


def report_cli(*args):
    return subprocess.run([sys.executable, "-m", "adaptive_skill", "report", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=300)


def test_report_of_a_finished_run(run_dir):
    report = build(run_dir)
    assert report.status == "max_cycles" and report.tags == ["evo-0", "evo-1"]
    assert [row.decision for row in report.rows] == ["accepted as evo-1", "rejected", "no mutation"]
    assert [row.egl for row in report.rows] == [1000.0, 0.0, 0.0]  # cycle 1's batch (seed workspace) solved none
    assert [row.holdout for row in report.rows] == [10.0, 10.0, 10.0]  # the accepted workspace's holdout score
    assert [row.rounds for row in report.rows] == [2, 2, None] and report.rows[0].llr >= 2.5
    assert report.rows[0].judge_agreement == "agreement 100% · AUROC 1.00 (n=8)"
    assert [row.skills for row in report.rows] == [2, 2, 2] and report.max_skills == 3
    # each mutation's diff is between the commits the gate compared
    assert report.rows[0].diff_between[0] == "evo-0" and "+name: careful-checks" in report.rows[0].diff
    assert "+name: shortcut-hacks" in report.rows[1].diff and not report.rows[2].diff
    # cost per role per cycle: the agent's and evolver's from their trajectories, the judge has the rest
    run_cost = report.run_totals["cost"]
    assert sum(c["cost"] for row in report.rows for c in row.costs.values()) == pytest.approx(run_cost)
    assert all(row.costs["evolver"]["cost"] > 0 and row.costs["agent"]["cost"] > 0 for row in report.rows)
    assert sum(row.costs["judge"]["cost"] for row in report.rows) == pytest.approx(report.role_totals["judge"]["cost"])
    # the matrix: the seed, the tag, the rejected candidate, which failed both holdout tasks
    matrix = report.matrix
    assert matrix.columns == ["evo-0", "evo-1", "rejected (cycle 2)"]
    holdout = [t for t in matrix.tasks if (t, "rejected (cycle 2)") in matrix.cells]
    assert len(holdout) == 2 and all(matrix.summary(t, "rejected (cycle 2)") == "0/2 · 0.0" for t in holdout)
    # two gate rounds in cycle 1 + two baseline rounds in cycle 2
    assert all(matrix.summary(t, "evo-1") == "4/4 · 10.0" for t in holdout)
    # the looping task was nudged by the monitor, in both cycles that solved it
    assert {(e.attempt.task, e.action) for e in report.interventions} == {("task-5", "nudge")}
    assert report.calibration["n"] == 6 and report.calibration["auroc"] == 1.0


def test_html_is_self_contained_and_escaped(run_dir, tmp_path):
    out = tmp_path / "report.html"
    result = report_cli(run_dir, "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(out)
    html = out.read_text()
    # nothing is fetched: no external reference anywhere in the page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html) and "@import" not in html
    assert html.count("<svg") >= 7 and "<script src" not in html
    assert "judge vs verifier (holdout)" in html and "2 rounds, LLR +40.0" in html
    # the agent's output travels only inside the JSON, with '<' escaped: it cannot close the script element
    assert INJECTION not in html and "<img" not in html
    data = json.loads(re.search(r'<script type="application/json" id="trajectory-data">(.*?)</script>', html,
                                re.S).group(1))
    texts = json.dumps(data)
    assert INJECTION in json.loads(texts.replace("\\\\", "\\")) or "onerror=alert(1)" in texts
    assert len(data) == len([a for a in build(run_dir).attempts if a.trajectory])
    # default output path: inside the run directory
    default = report_cli(run_dir)
    assert default.returncode == 0 and Path(default.stdout.strip()) == run_dir / "report.html"


def test_markdown_for_the_terminal(run_dir):
    result = report_cli(run_dir, "--format", "md")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.startswith(f"# Run {run_dir.name}") and "- status: max_cycles" in text
    assert "| 1 | 5 | created careful-checks | 1 / 0 | 1 | 2 rounds, LLR +40.0 | accepted as evo-1" in text
    assert "| agreement 100% · AUROC 1.00 (n=8) |" in text
    assert "| task | evo-0 | evo-1 | rejected (cycle 2) |" in text and "| nudge |" in text
    assert render_markdown(build(run_dir)) == text


def test_a_crashed_run_still_gets_a_report(run_dir, tmp_path):
    """Killed in cycle 2's gate: the later files are missing and the last event line is torn."""
    crashed = tmp_path / "crashed"
    shutil.copytree(run_dir, crashed, symlinks=True)
    shutil.rmtree(crashed / "cycles" / "003")
    for phase in ("gate", "commit", "converge"):
        (crashed / "cycles" / "002" / f"{phase}.json").unlink()
    events = (crashed / "events.jsonl").read_text().splitlines()
    cut = next(i for i, line in enumerate(events) if '"phase": "gate"' in line and '"cycle": 2' in line)
    (crashed / "events.jsonl").write_text("\n".join(events[:cut + 1]) + '\n{"cycle": 2, "event": "pha')
    report = build(crashed)
    assert report.status.startswith("running")
    last = report.rows[-1]
    assert last.n == 2 and not last.complete and last.decision == "in progress"
    assert "+name: shortcut-hacks" in last.diff  # the candidate against its parent, the gate never said
    html = render_html(report)
    assert "in progress" in html and html.count("<svg") >= 7
    assert report_cli(crashed, "--format", "md").returncode == 0
