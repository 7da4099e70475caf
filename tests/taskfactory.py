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
