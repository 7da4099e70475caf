"""Build the LLM agent from the one config object."""

from __future__ import annotations

from pathlib import Path

from adaptive_skill.agent.harness_agent import LLMAgent
from adaptive_skill.agent.loop import AgentLimits
from adaptive_skill.config import EvolveConfig
from adaptive_skill.workspace import Workspace


def agent_limits(config: EvolveConfig) -> AgentLimits:
    return AgentLimits(max_steps=config.limits.max_steps,
                       wall_time_sec=config.limits.max_wall_time_sec or 3600.0,
                       command_timeout_sec=config.sandbox.command_timeout_sec,
                       output_limit_chars=config.sandbox.output_limit_chars)


def build_llm_agent(config: EvolveConfig, workspace: Workspace, trajectories_dir: Path, accounting=None,
                    monitor_factory=None) -> LLMAgent:
    from adaptive_skill.llm import Accounting, make_llm

    accounting = accounting or Accounting(config.limits)
    llm = make_llm(config.models.agent, accounting, role="agent")
    return LLMAgent(llm, workspace, trajectories_dir, agent_limits(config), monitor_factory=monitor_factory)
