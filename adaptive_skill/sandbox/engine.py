"""Connecting to the Docker engine, with one clear line when it does not answer."""

from __future__ import annotations

import os
import re
import socket

from adaptive_skill.errors import UserError

SANDBOX_LABEL = "adaptive-skill.sandbox"  # on every container we create; `prune` keys on it
OWNER_LABEL = "adaptive-skill.owner"  # host:pid:start of the creating process; prune spares live owners


def connect(timeout: float = 60.0):
    """A docker.DockerClient that has answered a ping, or UserError."""
    import docker

    try:
        client = docker.from_env(timeout=int(timeout))
        client.ping()
    except Exception as exc:  # DockerException, requests errors, bad DOCKER_HOST: all the same to a user
        raise UserError(f"cannot reach the Docker engine: {one_line(exc)}") from exc
    from adaptive_skill.sandbox.cleanup import open_sandboxes

    open_sandboxes.install_signal_handlers()  # connecting usually happens in the main thread
    return client


def one_line(exc: BaseException, limit: int = 300) -> str:
    text = re.sub(r"\s+", " ", str(exc)).strip() or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def current_owner() -> str:
    """host:pid:start-ticks of this process: enough for `prune` to tell whether it still runs."""
    return f"{socket.gethostname()}:{os.getpid()}:{_process_start(os.getpid())}"


def owner_alive(owner: str) -> bool | None:
    """True/False for an owner on this host, None when it is another host's (unknown)."""
    host, _, rest = owner.partition(":")
    pid, _, start = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    return _process_start(int(pid)) == start  # a reused pid has another start time


def _process_start(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""
