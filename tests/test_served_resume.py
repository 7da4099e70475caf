"""A model server that dies in the middle of an overnight run (issue 67, item 4): the role retries,
the run stops cleanly (status model_unavailable, exit 1, nothing of the failed phase recorded), and
`evolve --resume` with the server back finishes it, reusing every attempt that finished before.

Every role runs through a real OpenAI-compatible server on 127.0.0.1 (llama-cpp-python's, serving the
embedded SmolLM2-135M file); the run is one cycle of three train tasks and one holdout round."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from taskfactory import make_task

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(port: int, log: Path) -> subprocess.Popen:
    from adaptive_skill.llm.local import model_file

    process = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model_file("smollm2-135m")),
                                "--host", "127.0.0.1", "--port", str(port), "--n_threads", "2", "--n_ctx", "4096",
                                "--model_alias", "smollm2"], stdout=log.open("a"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the server did not come up: {log.read_text()[-2000:]}")
            time.sleep(0.5)


def _stop(process: subprocess.Popen) -> None:
    process.kill()
    process.wait(timeout=30)


@pytest.mark.docker
def test_a_server_killed_mid_run_stops_it_cleanly_and_resume_finishes_with_nothing_lost(tmp_path, docker_client,
                                                                                      base_image):
    try:
        import llama_cpp.server.app  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"llama-cpp-python's server is not installed ({exc}): pip install -e '.[local]'")
    suite = tmp_path / "suite"
    for index in range(4):
        make_task(suite, f"task-{index}")
    port = _free_port()
    served = {"model": "openai/smollm2", "api_base": f"http://127.0.0.1:{port}/v1", "api_key": "none", "free": True,
              "max_retries": 1, "timeout_sec": 60}
    config = {"paths": {"workspace": str(REPO / "workspace"), "suite": str(suite), "runs_dir": str(tmp_path / "runs")},
              "models": {"agent": {**served, "max_tokens": 200, "protocol": "text"},
                         "judge": {**served, "max_tokens": 400}, "evolver": served},
              "batch_size": 3, "holdout_ratio": 0.25, "max_cycles": 1, "workers": 1, "seed": 3,
              "limits": {"max_steps": 3}, "evolver": {"mode": "distill"}, "skill_in_prompt_tokens": 0,
              "explore": {"passes": 0}, "gating": {"min_rounds": 1, "max_rounds": 1}}
    path = tmp_path / "served.yaml"
    path.write_text(yaml.safe_dump(config))
    log = tmp_path / "server.log"
    server = _serve(port, log)
    run_dir = tmp_path / "runs" / "night"
    results = run_dir / "cycles" / "001" / "solve" / "results"
    command = [sys.executable, "-m", "adaptive_skill", "evolve", "--config", str(path), "-q"]
    first = subprocess.Popen([*command, "--run-id", "night"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600
        while not list(results.glob("*.json")):  # the first attempt finished: the server dies now
            assert first.poll() is None, first.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "no attempt finished in 10 minutes"
            time.sleep(0.2)
        _stop(server)
        out, err = first.communicate(timeout=600)
    finally:
        if first.poll() is None:
            first.kill()
        if server.poll() is None:
            _stop(server)
    assert first.returncode == 1, err[-3000:]
    assert "status: model_unavailable" in out, out
    checkpoint = json.loads((run_dir / "checkpoint.json").read_text())
    assert checkpoint["status"] == "model_unavailable" and "solve" not in checkpoint["done"]
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    stop = [e for e in events if e.get("event") == "model_unavailable"]
    assert stop and "models.agent (openai/smollm2 at http://127.0.0.1:" in stop[0]["detail"], stop
    kept = {p.name: p.read_bytes() for p in results.glob("*.json")}
    assert 1 <= len(kept) < 3
    assert all(json.loads(data)["failure_mode"] != "agent_error" for data in kept.values())  # none blamed on the agent

    server = _serve(port, log)
    try:
        done = subprocess.run([*command, "--resume", str(run_dir)], capture_output=True, text=True, timeout=1200)
    finally:
        _stop(server)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "status: max_cycles" in done.stdout, done.stdout
    for name, data in kept.items():  # the attempts that finished before the kill: reused, not run again
        assert (results / name).read_bytes() == data
    assert len(list(results.glob("*.json"))) == 3
    observed = json.loads((run_dir / "cycles" / "001" / "observe.json").read_text())
    verdicts = [item for item in observed["items"]
                if not item["judge_error"] and (item.get("verdict") or {}).get("score") is not None]
    assert len(verdicts) == 3, observed["items"]  # a verdict for every attempt, through the server
