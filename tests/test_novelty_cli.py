"""`adaptive-skill novelty`, run as a user runs it: output, the JSON trajectory, exit codes, bad flags,
and one offline run with the embedded model.

The embedded-model test skips only where llama_cpp is not importable and CI is unset; under CI it
fails, so a broken [local] install cannot pass unnoticed.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SEED = "Improve urban transportation"


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)


def task(title, instruction, category="scripting"):
    return {"content": {"title": title, "instruction": instruction, "category": category, "difficulty": "medium",
                        "rationale": "This expert would ask for it."}}


NEAR = task("Improve urban transportation",
            "Improve urban transportation by writing a bus timetable script for urban transportation.")
FAR = task("Cuneiform numerals", "Write a Rust parser that reads Babylonian cuneiform numerals from glyphs.txt.")


@pytest.fixture
def script(tmp_path):
    def write(*replies):
        path = tmp_path / "proposer.yaml"
        path.write_text(yaml.safe_dump(list(replies)))
        return f"scripted/{path}"
    return write


def test_output_json_and_the_breakthrough_marker(tmp_path, script):
    out = tmp_path / "run" / "out.json"
    result = cli("novelty", SEED, "--model", script(NEAR, FAR), "--seed", 1, "-o", out)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.startswith(f"Seed: {SEED}\nstrategy breakthrough · model scripted/")
    assert "  1  " in text and "Task: Improve urban transportation (scripting · medium)" in text
    assert "novelty █" in text and "★ breakthrough" in text
    assert "Stopped (breakthrough): novelty" in text and "Breakthrough (#2, " in text
    data = json.loads(out.read_text())
    assert data["seed"] == SEED and data["stop"]["reason"] == "breakthrough" and data["breakthrough"] == 2
    assert [it["task"]["title"] for it in data["iterations"]] == ["Improve urban transportation", "Cuneiform numerals"]
    assert data["iterations"][1]["novelty"]["score"] >= 0.4 and data["summary"]["count"] == 2


def test_json_to_stdout_quiet_and_verbose(script):
    result = cli("novelty", SEED, "--model", script(NEAR, FAR), "-o", "-", "-q")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["stop"]["reason"] == "breakthrough"
    assert "Task:" not in result.stderr and result.stderr.lstrip().startswith("Stopped (breakthrough)")

    verbose = cli("novelty", SEED, "--model", script(NEAR, FAR), "-v")
    assert verbose.returncode == 0, verbose.stderr
    assert "bus timetable script" in verbose.stdout and "why: This expert would ask for it." in verbose.stdout
    assert "nearest - · step " in verbose.stdout  # the first task has no earlier task


def test_flags_override_the_config(tmp_path, script):
    config = tmp_path / "cycle.yaml"
    config.write_text("novelty:\n  strategy: exhaust\n  max_iterations: 9\n  language: zh\n"
                      "models:\n  proposer:\n    temperature: 0.2\n")
    out = tmp_path / "out.json"
    result = cli("novelty", SEED, "--config", config, "--model", script(NEAR, FAR, FAR, FAR), "--strategy", "coverage",
                 "--clusters", 2, "-l", "en", "--perturbation", "domain", "--archive", "--contrastive", "-o", out, "-q")
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    settings = data["settings"]
    assert (settings["strategy"], settings["clusters"], settings["language"], settings["max_iterations"]) == (
        "coverage", 2, "en", 9)
    assert settings["perturbation"] == "domain" and settings["archive"] and settings["contrastive"]
    assert data["stop"]["reason"] == "coverage" and len(data["iterations"]) == 2
    assert data["iterations"][0]["perspective"]["kind"] == "domain" and data["archive"]["cells"]


def test_repeated_model_failures_exit_1_and_still_write_the_trajectory(tmp_path, script):
    out = tmp_path / "out.json"
    result = cli("novelty", SEED, "--model", script(NEAR, {"error": "timeout"}, {"error": "timeout"},
                                                    {"error": "rate_limit"}), "-o", out)
    assert result.returncode == 1
    assert "failed (model):" in result.stdout and "Stopped (failures): 3 failed iterations in a row" in result.stdout
    data = json.loads(out.read_text())
    assert data["stop"]["reason"] == "failures" and [it["error_kind"] for it in data["iterations"]] == [
        None, "model", "model", "model"]


def test_a_run_without_any_task_exits_1(script):
    result = cli("novelty", SEED, "--model", script({"error": "timeout"}, {"error": "timeout"}), "--max-iter", 2)
    assert result.returncode == 1
    assert "Stopped (max_iterations)" in result.stdout and "No task was proposed: every iteration failed." in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--threshold", "5"], "error: --threshold: Input should be less than or equal to 2 (got 5.0)"),
    (["--max-iter", "0"], "error: --max-iter: Input should be greater than or equal to 1"),
    (["--temperature", "3"], "error: --temperature: Input should be less than or equal to 2"),
    (["--clusters", "0"], "error: --clusters: Input should be greater than or equal to 1"),
    (["--model", "scripted//no/such/script.yaml"], "error: /no/such/script.yaml: no such script for the scripted model"),
    (["--set", "novelty.strategy=random"], "error: --set novelty.strategy=random: Input should be 'breakthrough'"),
])
def test_bad_values_end_in_one_line_and_exit_2(args, message):
    result = cli("novelty", SEED, *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and len(result.stderr.splitlines()) == 1, result.stderr


@pytest.mark.parametrize("args", [["--strategy", "random"], ["-l", "fr"], ["--threshold", "high"], []])
def test_argparse_refuses_bad_flags(args):
    result = cli("novelty", *([SEED] if args else []), *args)
    assert result.returncode == 2 and "usage: adaptive-skill novelty" in result.stderr


def test_an_empty_seed_is_refused(script):
    result = cli("novelty", "  ", "--model", script(NEAR))
    assert result.returncode == 2 and result.stderr == "error: the seed problem is empty\n"


def test_embedded_model_offline(tmp_path, embedded_model):
    out = tmp_path / "out.json"
    # Temperature 0 and a fixed seed keep the run reproducible; coverage of 5 clusters cannot be
    # met in 2 iterations, so both run. max_tokens bounds a rambling reply (a task needs ~100).
    result = cli("novelty", SEED, "--model", embedded_model, "--embedding-model", "lexical",
                 "--temperature", 0, "--seed", 1, "--strategy", "coverage", "--max-iter", 2,
                 "--set", "models.proposer.max_tokens=300", "-o", out, timeout=600)
    data = json.loads(out.read_text())
    assert data["model"] == "local/smollm2-135m" and data["embedder"] == "lexical-512"
    assert len(data["iterations"]) == 2 and data["stop"]["reason"] == "max_iterations"
    proposed = [it for it in data["iterations"] if it["task"] is not None]
    # The 135M model's content means little, but the pipeline must carry a real task through:
    # schema-valid reply, embedding, score. A failed iteration must say why.
    assert proposed, data["iterations"]
    assert all(it["task"]["category"] in ("build", "debug", "data-processing", "git", "system-administration",
                                          "security", "file-operations", "text-processing", "networking",
                                          "scripting", "other") for it in proposed)
    assert all(0.0 <= it["novelty"]["score"] <= 2.0 for it in proposed)
    assert all(it["error"] for it in data["iterations"] if it["task"] is None)
    assert result.returncode == 0, result.stderr
