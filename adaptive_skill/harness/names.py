"""The agents a run can name, and the check an attempt's job makes before it travels: plain data
that imports nothing of the project, so the executors' job (executors/base.py, AttemptJob) can check
a name without importing the agents themselves (harness/agents.py builds them)."""

from __future__ import annotations

AGENT_NAMES = ("llm", "oracle", "nop")  # the terminal agent over models.agent; the suite validators


def check_agent(name: str, workspace: object, trajectories_dir: object) -> None:
    """ValueError unless build_agent can build `name` with these; an AttemptJob checks before it
    travels to where the agent is built."""
    if name not in AGENT_NAMES:
        raise ValueError(f"unknown agent {name!r}: one of {', '.join(AGENT_NAMES)}")
    if name == "llm" and (workspace is None or trajectories_dir is None):
        raise ValueError("the llm agent needs a workspace and a trajectories_dir")
