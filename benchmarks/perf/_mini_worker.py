"""Runs inside mini-swe-agent's own venv and drives its DockerEnvironment for bench_vs_mini.py.

One JSON request per line on stdin, one JSON reply per line on the original stdout. Each call is
timed here, around the library call only, so the pipe between the two processes is not counted.
Imports nothing from adaptive_skill: this interpreter has only mini-swe-agent and its dependencies.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever the package prints goes to stderr, never into the protocol
    from minisweagent import __version__
    from minisweagent.environments.docker import DockerEnvironment

    logging.getLogger("minisweagent").setLevel(logging.WARNING)
    env = None

    def remove() -> None:
        # Synchronously: its own cleanup() runs `docker stop` in the background, which would still
        # be stopping containers (10 s grace for `sleep`) during the next measurement.
        nonlocal env
        if env is not None and env.container_id:
            subprocess.run(["docker", "rm", "-f", env.container_id], capture_output=True, timeout=60)
            env.container_id = None  # so its __del__ does not try again
        env = None

    replies.write(json.dumps({"version": __version__}) + "\n")
    try:
        for line in sys.stdin:
            request = json.loads(line)
            try:
                if request["op"] == "start":
                    remove()
                    started = time.perf_counter()
                    env = DockerEnvironment(image=request["image"], run_args=request.get("run_args", ["--rm"]))
                    first = env.execute({"command": "true"})
                    reply = {"seconds": time.perf_counter() - started, "returncode": first["returncode"]}
                elif request["op"] == "run":
                    started = time.perf_counter()
                    result = env.execute({"command": request["command"]})
                    reply = {"seconds": time.perf_counter() - started, "chars": len(result["output"]),
                             "returncode": result["returncode"]}
                elif request["op"] == "close":
                    remove()
                    reply = {}
                else:
                    reply = {"error": f"unknown op {request['op']!r}"}
            except Exception as exc:  # reported to the driver, which stops
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            replies.write(json.dumps(reply) + "\n")
    finally:
        remove()


if __name__ == "__main__":
    main()
