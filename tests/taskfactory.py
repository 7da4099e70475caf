"""Tiny Harbor tasks for Docker tests: no apt, builds in a second on debian:bookworm-slim."""

from pathlib import Path

TEST_SH = """#!/bin/bash
if [ "$(cat /app/answer.txt 2>/dev/null)" = "42" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
"""


def make_task(root: Path, name: str, solve: str = "echo 42 > /app/answer.txt\n", test: str = TEST_SH,
              dockerfile: str = "FROM debian:bookworm-slim\nWORKDIR /app\n", agent_timeout: int = 60,
              verifier_timeout: int = 30) -> Path:
    task = root / name
    files = {
        "instruction.md": "Write 42 to /app/answer.txt.",
        "task.toml": f'[metadata]\ncategory = "file-operations"\ndifficulty = "easy"\n'
                     f"[agent]\ntimeout_sec = {agent_timeout}\n[verifier]\ntimeout_sec = {verifier_timeout}\n"
                     "[environment]\nmemory_mb = 256\n",
        "environment/Dockerfile": dockerfile, "tests/test.sh": test, "solution/solve.sh": solve,
    }
    for rel, text in files.items():
        (task / rel).parent.mkdir(parents=True, exist_ok=True)
        (task / rel).write_text(text)
    return task


def scripted_engine_config(tmp_path: Path, scripts: dict, **extra) -> Path:
    """A config file for a small engine run: six tiny tasks, the seed workspace, and one scripted
    model per role (`scripts`: role -> list of replies). `extra` keys are merged in at the top."""
    import yaml

    repo = Path(__file__).resolve().parents[1]
    suite = tmp_path / "suite"
    for index in range(6):
        make_task(suite, f"task-{index}")
    models = {}
    for role, script in scripts.items():
        path = tmp_path / f"{role}.yaml"
        path.write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{path}"}
    config = {
        "max_skills": 3, "batch_size": 2, "holdout_ratio": 0.34, "max_cycles": 3, "workers": 2, "seed": 1,
        "paths": {"workspace": str(repo / "workspace"), "suite": str(suite), "runs_dir": str(tmp_path / "runs")},
        "models": models, "limits": {"max_steps": 4}, **extra,
    }
    # these runs script the single evolver's replies and no explore phase: the engine's own defaults
    # (config/defaults.py, the learning setup) apply only where a test asks for them
    if isinstance(config.get("evolver", {}), dict):
        config["evolver"] = {"mode": "single", **config.get("evolver", {})}
    if isinstance(config.get("explore", {}), dict):
        config["explore"] = {"passes": 0, "reflect": False, "agree": False, **config.get("explore", {})}
    config.setdefault("skill_in_prompt_tokens", 0)
    path = tmp_path / "cycle.yaml"
    path.write_text(yaml.safe_dump(config))
    return path
