"""The evolver probe (benchmarks/probes/evolver_probe.py) with a scripted model: the options that produced
the run 10 probe figures of docs/log/results-runs.md (--seeds, --temperature, --allow-network) do what they say."""

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
INSTALL = {"diagnosis": "jq is not installed in the container.", "action": "add", "name": "jq-missing",
           "description": "Use when jq says command not found.",
           "steps": ["apt-get install -y jq", "Read the key with jq again."],
           "verification": ["The output file holds the value."]}
NONE = {**INSTALL, "action": "none"}


def probe():
    spec = importlib.util.spec_from_file_location("evolver_probe", REPO / "benchmarks" / "probes" / "evolver_probe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def run(tmp_path):
    """An evolve run with one cycle whose observations hold a failure (jq not found)."""
    folder = tmp_path / "run" / "cycles" / "001" / "observations" / "read-port"
    folder.mkdir(parents=True)
    (folder.parent / "index.md").write_text("# Observations\n")
    (folder / "instruction.md").write_text("Write the port from /app/config.json to /app/port.txt.")
    (folder / "trajectory.txt").write_text(
        "Trajectory: status submitted; 2 turns\n\n## Errors (1)\nstep 1 $ jq .port /app/config.json\n"
        "  -> error exit 127\n  | bash: jq: command not found\n")
    (folder / "signals.json").write_text(json.dumps({"error_snippets": ["bash: jq: command not found"]}))
    (folder / "verdict.json").write_text(json.dumps({"score": 2, "category": "json", "outcome": "no port",
                                                     "failure_reason": "jq: command not found"}))
    return tmp_path / "run"


def script(tmp_path, *replies):
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"replies": [{"content": json.dumps(r)} for r in replies]}))
    return f"scripted/{path}"


@pytest.mark.parametrize("allow_network", [False, True])
def test_each_seed_asks_the_question_once_more_and_the_network_switch_reaches_the_rules(run, tmp_path, capsys,
                                                                                      allow_network):
    model = script(tmp_path, INSTALL, NONE)
    out = tmp_path / "rows.json"
    argv = [str(run), "--model", model, "--seeds", "2", "--temperature", "0.7", "--json", str(out)]
    assert probe().main(argv + (["--allow-network"] if allow_network else [])) == 0
    rows = json.loads(out.read_text())
    assert [r["seed"] for r in rows] == [0, 1]
    summary = json.loads([line for line in capsys.readouterr().out.splitlines() if line.startswith("{")][-1])
    if allow_network:  # the install is written, each seed: one reply
        assert summary == {"questions": 2, "written": 2, "statuses": {"submitted": 2}}
        assert all(len(r["replies"]) == 1 for r in rows)
    else:  # refused, asked again, answered none
        assert summary == {"questions": 2, "written": 0, "statuses": {"no change": 2}}
        assert all(len(r["replies"]) == 2 for r in rows)


def test_several_seeds_at_temperature_zero_is_a_usage_error(run, capsys):
    with pytest.raises(SystemExit) as stopped:
        probe().main([str(run), "--seeds", "3"])
    assert stopped.value.code == 2 and "needs --temperature > 0" in capsys.readouterr().err


def test_the_probe_leaves_the_seed_workspace_alone(run, tmp_path):
    before = {p: p.read_bytes() for p in (REPO / "workspace").rglob("*") if p.is_file()}
    probe().main([str(run), "--model", script(tmp_path, {**INSTALL, "steps": ["python3 -m json.tool /app/config.json"]})])
    assert {p: p.read_bytes() for p in (REPO / "workspace").rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("without_programs", [False, True])
def test_without_programs_asks_the_same_failures_without_the_programs_sentence(run, tmp_path, capsys,
                                                                               without_programs):
    programs = run / "cycles" / "001" / "observations" / "read-port" / "programs.json"
    programs.write_text(json.dumps({"installed": ["python3", "sed"], "missing": ["jq"]}))
    out = tmp_path / "rows.json"
    argv = [str(run), "--model", script(tmp_path, NONE), "--json", str(out)]
    assert probe().main(argv + (["--without-programs"] if without_programs else [])) == 0
    printed = capsys.readouterr().out
    assert ("Installed in the tasks' containers: python3, sed. Not installed there: jq." in printed) \
        is (not without_programs)
    assert "### read-port" in printed and programs.exists()  # the run's own folder is left as it was
    assert json.loads(out.read_text())[0]["programs"] is (not without_programs)


def test_samples_ask_fresh_questions_as_the_engine_does(run, tmp_path, capsys):
    """--samples 2: the install is refused, asked again (none), then a fresh question at another seed
    (the scripted model starts its script again there) ends the same way."""
    out = tmp_path / "rows.json"
    argv = [str(run), "--model", script(tmp_path, INSTALL, NONE), "--samples", "2", "--temperature", "0.7",
            "--json", str(out)]
    assert probe().main(argv) == 0
    row = json.loads(out.read_text())[0]
    assert row["samples_asked"] == 2 and len(row["replies"]) == 4 and row["status"] == "no change"
    assert row["summary"].startswith("sample 2 of 2")
    with pytest.raises(SystemExit) as stopped:
        probe().main([str(run), "--samples", "2"])
    assert stopped.value.code == 2 and "needs --temperature > 0" in capsys.readouterr().err
