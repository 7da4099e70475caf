"""The one place agents are built: `build_agent(name, config, ...)` gives the harness, the
executors (local threads and Ray nodes), `run` and `solve` the same agent for the same name.

    oracle, nop  validate a suite: a sound task passes with the reference solution and fails when
                 nothing is done
    llm          the terminal agent (agent/loop.py) over `models.agent`, with the spiral monitor,
                 the memory budget and embedder, and (solver_proposed) skill drafts

All three implement the Agent protocol (adaptive_skill/protocols.py).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from adaptive_skill.agent.loop import AgentLimits, MemoryOptions, TerminalAgent
from adaptive_skill.agent.skillfiles import install_skills
from adaptive_skill.config import EvolveConfig
from adaptive_skill.harness.names import check_agent
from adaptive_skill.harness.results import AgentOutcome
from adaptive_skill.llm.base import BudgetExceeded
from adaptive_skill.protocols import LLM, Agent, Sandbox, StepMonitor
from adaptive_skill.tasks.model import Task
from adaptive_skill.workspace import Workspace

SOLUTION_DIR = "/solution"
DRAFT_DIR = "/skill-draft"
DRAFT_NOTE = (f"\n\nOptional: if you learned something reusable for tasks like this one, write it as a draft "
              f"skill (SKILL.md with name and description frontmatter) to {DRAFT_DIR}/SKILL.md before you submit.")


def prompt_instruction(task: Task, *, drafts: bool) -> str:
    """The instruction the agent is given (and its skill placed by): the task's, with the draft note
    under solver_proposed."""
    return task.instruction + (DRAFT_NOTE if drafts else "")


class NopAgent:
    """Does nothing: the tests must fail."""

    name = "nop"

    def solve(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        return AgentOutcome(status="completed", detail="did nothing")


class OracleAgent:
    """Runs the task's reference solution as Harbor does: a fresh process as the agent's user (the
    image's USER unless agent.user says otherwise), with [solution.env] and a non-interactive
    DEBIAN_FRONTEND, under the agent's time limit."""

    name = "oracle"

    def solve(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        script = task.solution_script
        if script is None:
            return AgentOutcome(status="error", detail=f"task {task.id} has no reference solution")
        if task.layout == "harbor":
            sandbox.copy_in(script.parent, SOLUTION_DIR)
        else:
            sandbox.copy_in(script, f"{SOLUTION_DIR}/{script.name}")
        env = {"DEBIAN_FRONTEND": "noninteractive", **dict(task.solution_env)}
        exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
        result = sandbox.exec(f"env {exports} bash {SOLUTION_DIR}/{script.name}", timeout=task.agent_timeout_sec,
                              user=task.agent_user or "")
        tail = result.output[-2000:]
        if result.timed_out:
            return AgentOutcome(status="timeout",
                                detail=f"solution timed out after {task.agent_timeout_sec:g}s\n{tail}")
        return AgentOutcome(status="completed", detail=f"solution exit code {result.exit_code}\n{tail}")


class LLMAgent:
    """The terminal agent behind the Agent protocol, so `run --agent llm` and the engine treat it
    like oracle and nop."""

    name = "llm"
    _OUTCOME = {"submitted": "completed", "step_limit": "completed", "timeout": "timeout",
                "budget": "error", "error": "error", "halted": "error"}

    def __init__(self, llm: LLM, workspace: Workspace, trajectories_dir: Path, limits: AgentLimits,
                 monitor_factory=None, drafts_dir: Path | None = None, memory: MemoryOptions | None = None,
                 notes: Mapping[str, str] | None = None):
        self.llm, self.workspace, self.trajectories_dir = llm, workspace, trajectories_dir
        self.notes = dict(notes or {})  # task id -> a note after its instruction (explore.reflect)
        self.limits = limits
        self.memory = memory or MemoryOptions()
        self.monitor_factory = monitor_factory  # one fresh monitor per attempt: it keeps state
        self.drafts_dir = drafts_dir  # solver_proposed: where drafts of this batch are collected

    def solve(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        limits = AgentLimits(**{**self.limits.__dict__, "submit_after_commands": 1,
                                "wall_time_sec": min(self.limits.wall_time_sec, task.agent_timeout_sec)})
        monitor: StepMonitor | None = self.monitor_factory(task) if self.monitor_factory else None
        # The skills' files go into the sandbox before the agent's first step (docs/engine.md).
        mount = install_skills(self.workspace, sandbox)
        agent = TerminalAgent(self.llm, self.workspace, limits, monitor=monitor, skill_mount=mount,
                              memory=replace(self.memory, category=task.category))
        path = self.trajectories_dir / f"{task.id}.json"
        instruction = prompt_instruction(task, drafts=self.drafts_dir is not None)
        trajectory = agent.run(task.id, instruction, sandbox, path, note=self.notes.get(task.id))
        if trajectory.status == "budget":
            raise BudgetExceeded(trajectory.metadata.get("stop_reason", "budget spent"))
        if self.drafts_dir:
            self._collect_draft(task, sandbox)
        detail = f"{trajectory.status} after {len(trajectory.steps)} steps"
        if reason := trajectory.metadata.get("stop_reason"):
            detail += f": {reason}"
        return AgentOutcome(status=self._OUTCOME[trajectory.status], detail=detail, trajectory_path=str(path))

    def _collect_draft(self, task: Task, sandbox: Sandbox) -> None:
        """Copy a proposed /skill-draft/SKILL.md out of the container (before the verifier runs)."""
        found = sandbox.exec(f"test -f {DRAFT_DIR}/SKILL.md", timeout=10)
        if found.exit_code == 0:
            target = self.drafts_dir / task.id
            target.parent.mkdir(parents=True, exist_ok=True)
            sandbox.copy_out(f"{DRAFT_DIR}/SKILL.md", target / "SKILL.md")


SUITE_AGENTS = {"oracle": OracleAgent, "nop": NopAgent}  # AGENT_NAMES (harness/names.py) lists them


def build_agent(name: str, config: EvolveConfig, *, workspace: Workspace | Path | None = None,
                trajectories_dir: Path | None = None, accounting=None, llm: LLM | None = None,
                drafts_dir: Path | None = None, monitor_factory=None,
                notes: Mapping[str, str] | None = None) -> Agent:
    """The agent `name` names. For llm: `workspace` and `trajectories_dir` are required; `llm` lets
    a caller share one model (and its load) across batches, else one is made from models.agent and
    charged to `accounting` (a Ray node has no driver's client to borrow); `drafts_dir` turns on
    solver-proposed skill drafts; `monitor_factory` replaces the spiral monitor (spiral.enabled);
    `notes` (task id -> text) go after those tasks' instructions (explore.reflect)."""
    check_agent(name, workspace, trajectories_dir)
    if name in SUITE_AGENTS:
        return SUITE_AGENTS[name]()
    workspace = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
    if llm is None:
        from adaptive_skill.llm import Accounting, make_llm

        llm = make_llm(config.models.agent, accounting or Accounting(config.limits), role="agent")
    if monitor_factory is None and config.spiral.enabled:  # the loop monitor unless the caller brings one
        from adaptive_skill.spiral import monitor_factory as spiral_monitor_factory

        monitor_factory = spiral_monitor_factory(config)
    agent = config.models.agent
    limits = replace(AgentLimits.from_config(config), check_before_submit=agent.check_before_submit,
                     show_before_submit=agent.show_before_submit)
    return LLMAgent(llm, workspace, trajectories_dir, limits, monitor_factory=monitor_factory,
                    drafts_dir=drafts_dir, memory=memory_options(config, workspace), notes=notes)


def memory_options(config: EvolveConfig, workspace: Workspace) -> MemoryOptions:
    """The run's memory budget, embedder (`models.embedder`) and token counter. The embedder is
    built only when the workspace has memory files to rank."""
    from adaptive_skill.observe.tokens import TokenCounter

    embedder = None
    if (config.memory_budget_tokens > 0 and workspace.memory_files()) or config.skill_in_prompt_tokens > 0:
        from adaptive_skill.embed import make_embedder

        embedder = make_embedder(config.models.embedder)
    return MemoryOptions(budget_tokens=config.memory_budget_tokens, embedder=embedder,
                         count_tokens=TokenCounter().count, skill_tokens=config.skill_in_prompt_tokens,
                         skill_min_similarity=config.skill_in_prompt_min_similarity)
