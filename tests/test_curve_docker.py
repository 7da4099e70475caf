"""`adaptive-skill curve` end to end in Docker with scripted models: the seed, a one-cycle evolve run
whose candidate the gate accepts, its tag and an expert, on the same two holdout tasks with the gate's
seeds; then the same command again skips every finished part, runs no attempt and writes the same
results.json byte for byte; and a part left unfinished (a crash) is finished from the round cache."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from taskfactory import scripted_engine_config
from test_engine_docker import AGENT, EVOLVER, JUDGE

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker

CAREFUL = ("---\nname: careful-checks\ndescription: Use when writing answer files for tasks.\n---\n## Steps\n"
           "1. Write the answer file.\n## Verification\n- cat the file\n")


def curve(config: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", "curve", "--config", str(config), "--out", str(out),
                           "-q"], capture_output=True, text=True, cwd=REPO, timeout=1800)


def attempt_files(out: Path) -> dict[str, float]:
    return {str(p.relative_to(out)): p.stat().st_mtime for p in (out / "runs").rglob("results/*.json")}


def test_a_curve_resumes_and_a_second_run_changes_nothing(tmp_path, docker_client, base_image):
    expert = tmp_path / "expert"
    shutil.copytree(REPO / "workspace", expert)
    (expert / "skills" / "careful-checks").mkdir()
    (expert / "skills" / "careful-checks" / "SKILL.md").write_text(CAREFUL)
    config = scripted_engine_config(tmp_path, {"agent": AGENT, "judge": JUDGE, "evolver": EVOLVER}, max_cycles=1,
                                    gating={"min_rounds": 2, "max_rounds": 2}, curve={"repeats": 2, "expert": str(expert)})
    out = tmp_path / "out"

    first = curve(config, out)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    assert len(results["holdout"]) == 2 and results["evolve"]["accepted"] == ["evo-1"]
    rows = {row["label"]: row for row in results["curve"] + [results["expert"]]}
    assert list(rows) == ["seed (evo-0)", "evo-1", "expert"]
    # the seed writes nothing (0 of 4), the evolved tag and the expert write the answer (4 of 4), paired
    assert rows["seed (evo-0)"]["pass_rate"]["mean"] == 0.0
    assert rows["evo-1"]["scores"] == rows["expert"]["scores"] == {t: [1.0, 1.0] for t in results["holdout"]}
    assert rows["evo-1"]["vs_seed"]["mean"] == 1.0 and rows["evo-1"]["headroom_share"]["share"] == 1.0
    assert results["cycles"][0]["tag"] == "evo-1" and results["cycles"][0]["tasks_better"] == 2
    # the tag's evaluation is its accepted gate's rounds; the seed's are the gate's baseline rounds
    assert rows["evo-1"]["wall_sec"] < 30 and results["cycles"][0]["baseline_mean"] == 0.0
    assert "evo-1: 100.0% [100.0%, 100.0%]; vs seed +100.00 [+100.00, +100.00] points" in first.stdout
    assert (out / "curve.html").read_text().count("<svg") == 2 and "| evo-1 | 1 | 100% [" in (out / "results.md").read_text()

    attempts = attempt_files(out)
    assert len(attempts) >= 2 * 2 * 3  # 2 tasks x 2 repeats x (seed, gate's candidate, expert)
    written = (out / "results.json").read_bytes()
    again = curve(config, out)
    assert again.returncode == 0, again.stderr[-3000:]
    for part in ("seed", "evolve", "tag:evo-1", "expert"):
        assert f"{part}: done before, skipped" in again.stdout
    assert (out / "results.json").read_bytes() == written
    assert attempt_files(out) == attempts  # not one attempt ran again

    # a crash in the expert's part: its record not done, no results yet; the same command finishes it
    # from the finished attempts in its round cache, and the curve is the same
    state = json.loads((out / "state.json").read_text())
    del state["parts"]["expert"]["done"]
    (out / "state.json").write_text(json.dumps(state))
    (out / "results.json").unlink()
    resumed = curve(config, out)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "expert: done before" not in resumed.stdout and "(b) expert repeat 2/2: 2/2 holdout tasks passed" in \
        resumed.stdout
    after = json.loads((out / "results.json").read_text())
    assert after["expert"]["scores"] == results["expert"]["scores"] and after["curve"] == results["curve"]
    assert attempt_files(out) == attempts
