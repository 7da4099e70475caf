"""The shipped suites are sound: every task builds offline, passes with its reference solution
and fails when nothing is done. This runs `tasks validate --json` exactly as a user would."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker


@pytest.mark.parametrize("suite,minimum", [("benchmarks/terminal-core", 30), ("tests/fixtures/legacy-suite", 2)])
def test_suite_validates(docker_client, base_image, suite, minimum):
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "tasks", "validate", suite, "--json",
                             "--workers", "2", "--quiet"], capture_output=True, text=True, cwd=REPO, timeout=3600)
    report = json.loads(result.stdout)
    unsound = {row["id"]: (row["oracle"], row["nop"], row["detail"][-800:])
               for row in report["tasks"] if not row["sound"]}
    assert not unsound, unsound
    assert result.returncode == 0, result.stderr[-2000:]
    assert report["summary"]["tasks"] >= minimum
    if minimum >= 30:
        categories = {row["category"] for row in report["tasks"]}
        assert len(categories) >= 6, categories
        assert {row["difficulty"] for row in report["tasks"]} >= {"easy", "medium", "hard"}
