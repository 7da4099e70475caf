"""The terminal agent: a small ReAct loop in the spirit of mini-swe-agent.

Each step: ask the model, parse exactly one action (bash, read_skill, submit), run it, show the
observation, let the monitor look, save the trajectory. Limits: steps, wall time (LLM retries
included), and the LLM layer's token and cost budgets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.agent.inline import ENTRY_MIN_SIMILARITY, InlineSkill, best_skill
from adaptive_skill.agent.memory import (
    DEFAULT_BUDGET_TOKENS,
    MemorySelection,
    ShownEntry,
    estimate_tokens,
    select_memory,
)
from adaptive_skill.agent.protocol import (
    FORMAT_REMINDER,
    NATIVE_FORMAT_REMINDER,
    TEXT_PROTOCOL_DEMO_VERSION,
    TEXT_PROTOCOL_HELP,
    Action,
    FormatProblem,
    parse_native,
    parse_text,
    text_protocol_grammar,
    tool_specs,
    with_demo,
)
from adaptive_skill.agent.reflect import with_reflection
from adaptive_skill.agent.skillfiles import SKILLS_ROOT, SkillMount
from adaptive_skill.agent.written import show_command, written_paths
from adaptive_skill.config import EvolveConfig, LimitsConfig, SandboxConfig
from adaptive_skill.errors import SkillError, UserError
from adaptive_skill.llm.base import BudgetExceeded, LLMError, LLMResponse, ModelUnavailable
from adaptive_skill.protocols import LLM, Sandbox, StepMonitor
from adaptive_skill.trajectory import StepRecord, Trajectory
from adaptive_skill.workspace import Workspace

_LIMITS, _SANDBOX = LimitsConfig(), SandboxConfig()  # the config's defaults: each number has one home
NO_WALL_LIMIT_SEC = 3600.0  # an attempt's wall time when the config sets no limits.max_wall_time_sec
EARLY_SUBMIT = ("not submitted: you have not run a command yet, so nothing in the terminal has changed. "
                "Run the command that does the task first, check its result, then submit.")
CHECK_FIRST = ("not submitted yet: look at your result first. Run one command that shows it (for example cat "
               "the file you wrote, ls -l, git log -1) and compare it with every detail of the task; fix what "
               "differs, then submit.")
SHOW_FIRST = ("not submitted yet: this is what your commands wrote. Compare it with every detail of the task; "
              "fix what differs, then submit.")


@dataclass(frozen=True)
class AgentLimits:
    """One attempt's bounds. The defaults are the config's; `from_config` reads a run's."""

    max_steps: int = _LIMITS.max_steps
    wall_time_sec: float = 600.0  # a bare agent's (tests, benchmarks); a run's comes from from_config
    command_timeout_sec: float = _SANDBOX.command_timeout_sec
    output_limit_chars: int = _SANDBOX.output_limit_chars
    max_format_errors: int = 3  # malformed replies beyond this end the attempt
    # A submit before this many bash commands is answered with EARLY_SUBMIT instead of ending the
    # attempt (task attempts use 1: a task is done in the terminal, and a small model often submits at
    # once; the evolver may rightly submit "no change" without a command).
    submit_after_commands: int = 0
    check_before_submit: bool = False  # the first submit is answered with CHECK_FIRST (task attempts:
    # models.agent.check_before_submit, set by harness/agents.py; never the evolver's turns)
    show_before_submit: bool = False  # the first submit is answered with what the attempt's commands
    # wrote (agent/written.py) and SHOW_FIRST; CHECK_FIRST where they wrote no file (models.agent.show_before_submit)

    @classmethod
    def from_config(cls, config: EvolveConfig, max_steps: int | None = None) -> AgentLimits:
        """The limits of a run's attempts; `max_steps` replaces limits.max_steps (the evolver's turns)."""
        return cls(max_steps=config.limits.max_steps if max_steps is None else max_steps,
                   wall_time_sec=config.limits.max_wall_time_sec or NO_WALL_LIMIT_SEC,
                   command_timeout_sec=config.sandbox.command_timeout_sec,
                   output_limit_chars=config.sandbox.output_limit_chars)


class TerminalAgent:
    def __init__(self, llm: LLM, workspace: Workspace | None, limits: AgentLimits = AgentLimits(),
                 monitor: StepMonitor | None = None, native_tools: bool | None = None,
                 system_prompt: str | None = None, memory: MemoryOptions | None = None,
                 skill_mount: SkillMount | None = None):
        """`workspace` supplies the system prompt and read_skill; the evolver passes its own
        `system_prompt` and no workspace (it reads skills with bash in its sandbox). `memory`: how
        memory entries are chosen for the prompt; `skill_mount`: where this attempt's sandbox holds
        the skills' files (install_skills), listed by read_skill."""
        self.llm = llm
        self.memory = memory or MemoryOptions()
        self.skill_mount = skill_mount
        self.workspace = workspace
        self.limits = limits
        self.monitor = monitor
        self.native = llm.supports_tools if native_tools is None else native_tools
        # The worked example goes to text-protocol models measured to need it (llm.protocol_demo).
        self.demo = not self.native and bool(getattr(llm, "protocol_demo", False))
        if system_prompt is None and workspace is None:
            raise ValueError("TerminalAgent needs a workspace or a system prompt")
        self.system_prompt = system_prompt
        self.tools, self.grammar = self._protocol()

    def _protocol(self) -> tuple[list[dict[str, Any]], str | None]:
        """The tools (read_skill only with a workspace, and only for its skills' names) and, for a model
        that takes a grammar (embedded) under the text protocol, the grammar that holds its replies to
        what parse_text accepts, with bounds that fit the reply's token limit."""
        skills = self.workspace.skill_names() if self.workspace is not None else None
        tools = tool_specs(read_skill=self.workspace is not None, skills=skills)
        if self.native or not getattr(self.llm, "supports_grammar", False):
            return tools, None
        max_tokens = getattr(getattr(self.llm, "config", None), "max_tokens", None)
        return tools, text_protocol_grammar(tuple(t["function"]["name"] for t in tools),
                                            max_tokens=max_tokens if isinstance(max_tokens, int) else None,
                                            skills=skills)

    # -- the loop ----------------------------------------------------------------------------

    def run(self, task_id: str, instruction: str, sandbox: Sandbox, path: Path | None = None,
            note: str | None = None) -> Trajectory:
        """One attempt. `note` (explore.reflect: what the attempt before did wrong, agent/reflect.py)
        follows the instruction in the first message and is kept in the metadata; the trajectory's
        instruction stays the task's."""
        self.tools, self.grammar = self._protocol()  # the workspace's skills as they are now
        trajectory = Trajectory(task_id=task_id, model=self.llm.model, instruction=instruction, path=path,
                                metadata={"protocol": "native" if self.native else "text",
                                          **({"protocol_demo": TEXT_PROTOCOL_DEMO_VERSION} if self.demo else {}),
                                          "limits": self.limits.__dict__,
                                          "skills": self.workspace.skill_names() if self.workspace else [],
                                          **({"reflection": note} if note else {})})
        context: list[dict[str, Any]] = []
        if self.system_prompt is None:
            rendered = build_system_prompt(self.workspace, self.native, instruction=instruction, memory=self.memory,
                                           skills_root=self.skill_mount.root if self.skill_mount else SKILLS_ROOT)
            system = rendered.text
            trajectory.metadata["memory"] = rendered.memory.to_dict()
            if rendered.inline is not None:
                trajectory.metadata["inline_skill"] = rendered.inline.to_dict()
            if self.skill_mount is not None:
                trajectory.metadata["skill_files"] = self.skill_mount.to_dict()
        else:
            system = self.system_prompt
            if not self.native:
                system = f"{system.rstrip()}\n\n{TEXT_PROTOCOL_HELP}\n"
        self._add(trajectory, context, {"role": "system", "content": system})
        self._add(trajectory, context, {"role": "user", "content": with_reflection(instruction, note)})
        trajectory.save()
        deadline = time.monotonic() + self.limits.wall_time_sec
        format_errors = commands = 0
        checked = False  # CHECK_FIRST was answered once: the next submit ends the attempt

        for index in range(1, self.limits.max_steps + 1):
            if time.monotonic() >= deadline:
                trajectory.status = "timeout"
                break
            started = time.monotonic()
            try:
                response = self.llm.complete(with_demo(context) if self.demo else context,
                                             tools=self.tools if self.native else None, task_id=task_id,
                                             **({"grammar": self.grammar} if self.grammar else {}))
            except BudgetExceeded as exc:
                trajectory.status, trajectory.metadata["stop_reason"] = "budget", str(exc)
                break
            except ModelUnavailable:
                raise  # not this attempt's end: the run stops and redoes it on resume
            except LLMError as exc:
                trajectory.status, trajectory.metadata["stop_reason"] = "error", str(exc)
                break
            step = StepRecord(index=index, tool=None, llm_duration_sec=round(time.monotonic() - started, 3),
                              prompt_tokens=response.usage.prompt_tokens,
                              completion_tokens=response.usage.completion_tokens, cost=response.cost,
                              message_index=len(trajectory.messages))
            self._add(trajectory, context, response.message())

            try:
                action = parse_native(response) if self.native else parse_text(response.content)
            except FormatProblem as problem:
                if response.finish_reason == "length":
                    problem = FormatProblem(f"the reply was cut off at the token limit ({problem}); "
                                            "write a shorter reply")
                elif response.finish_reason == "repetition":  # an embedded model's RepetitionGuard stopped it
                    problem = FormatProblem("the reply was stopped because it repeated the same text over and "
                                            "over; write one short command of a different kind")
                format_errors += 1
                step.error = f"format: {problem}"
                trajectory.steps.append(step)
                self._answer_malformed(trajectory, context, response, str(problem))
                if format_errors > self.limits.max_format_errors:
                    trajectory.status = "error"
                    trajectory.metadata["stop_reason"] = f"{format_errors} malformed replies"
                    break
                trajectory.save()
                continue

            if (action.tool == "bash" and self.workspace is not None
                    and action.argument.strip() in self.workspace.skill_names()):
                # a skill's name run as a command (the 1.5B did, again and again): no program has it
                action = Action("read_skill", action.argument.strip())
            step.tool, step.argument = action.tool, action.argument
            early = action.tool == "submit" and commands < self.limits.submit_after_commands
            hold = self.limits.check_before_submit or self.limits.show_before_submit
            check = action.tool == "submit" and not early and hold and not checked
            checked = checked or check
            if early:
                observation = self._hold_submit(step, EARLY_SUBMIT)
            elif check:
                shown = self._show_written(trajectory, sandbox, deadline) if self.limits.show_before_submit else ""
                observation = self._hold_submit(step, SHOW_FIRST if shown else CHECK_FIRST)
                if shown:
                    step.output = shown
                    observation = f"{observation}\n{shown}"
            else:
                observation = self._execute(action, step, sandbox, deadline)
            commands += action.tool == "bash"
            trajectory.steps.append(step)
            self._observe(trajectory, context, action, observation)
            if action.tool == "submit" and not (early or check):
                trajectory.status, trajectory.submission = "submitted", action.argument
                break
            if step.timed_out and time.monotonic() >= deadline:
                trajectory.status = "timeout"
                break
            if self._monitor(step, trajectory, context):
                break
            trajectory.save()
        else:
            trajectory.status = "step_limit"
        trajectory.save()
        return trajectory

    # -- pieces ------------------------------------------------------------------------------

    def _execute(self, action: Action, step: StepRecord, sandbox: Sandbox, deadline: float) -> str:
        started = time.monotonic()
        try:
            if action.tool == "bash":
                remaining = max(1.0, deadline - time.monotonic())
                result = sandbox.run(action.argument, timeout=min(self.limits.command_timeout_sec, remaining))
                step.output, step.exit_code, step.timed_out = result.output, result.exit_code, result.timed_out
                shown = result.for_model(self.limits.output_limit_chars)
                if result.timed_out:
                    return f"{shown}\n[command timed out and was killed]"
                return f"{shown}\n[exit code {result.exit_code}]"
            if action.tool == "read_skill":
                if self.workspace is None:
                    step.error = "read_skill is not available here"
                    return "error: read_skill is not available here; use bash to read files"
                try:
                    text = read_skill_text(self.workspace, action.argument, self.skill_mount)
                except SkillError as exc:
                    step.error = str(exc)
                    return f"error: {exc}"
                step.output = text
                return text
            step.output = action.argument
            return "submitted"
        finally:
            step.duration_sec = round(time.monotonic() - started, 3)

    def _show_written(self, trajectory: Trajectory, sandbox: Sandbox, deadline: float) -> str:
        """What the attempt's commands wrote, as the shell lists and prints it ("" when they wrote
        no file that exists, or the sandbox could not say)."""
        paths = written_paths(step.argument for step in trajectory.steps if step.tool == "bash" and step.argument)
        if not paths:
            return ""
        try:
            result = sandbox.run(show_command(paths), timeout=max(1.0, min(10.0, deadline - time.monotonic())))
        except Exception as exc:  # the agent's environment broke: its next command will say so
            trajectory.metadata["show_before_submit_error"] = str(exc)[:300]
            return ""
        return result.for_model(self.limits.output_limit_chars).strip() if result.output.strip() else ""

    @staticmethod
    def _hold_submit(step: StepRecord, reason: str) -> str:
        """A submit answered instead of ending the attempt (EARLY_SUBMIT or CHECK_FIRST)."""
        step.error = reason
        step.duration_sec = 0.0
        return f"error: {reason}"

    def _observe(self, trajectory: Trajectory, context: list[dict[str, Any]], action: Action,
                 observation: str) -> None:
        if action.call_id is not None:
            self._add(trajectory, context, {"role": "tool", "tool_call_id": action.call_id, "content": observation})
        else:
            self._add(trajectory, context, {"role": "user", "content": f"Observation ({action.tool}):\n{observation}"})

    def _answer_malformed(self, trajectory: Trajectory, context: list[dict[str, Any]], response: LLMResponse,
                          problem: str) -> None:
        reminder = (NATIVE_FORMAT_REMINDER if self.native else FORMAT_REMINDER).format(problem=problem)
        if response.tool_calls:  # every tool call must be answered before the next user turn
            for call in response.tool_calls:
                self._add(trajectory, context, {"role": "tool", "tool_call_id": call.id, "content": reminder})
        else:
            self._add(trajectory, context, {"role": "user", "content": reminder})

    def _monitor(self, step: StepRecord, trajectory: Trajectory, context: list[dict[str, Any]]) -> bool:
        """Apply the monitor's intervention; True when the attempt must stop."""
        if self.monitor is None:
            return False
        intervention = self.monitor.observe(step, trajectory, context)
        if intervention is None:
            return False
        trajectory.events.append({"step": step.index, "detector": intervention.detector,
                                  "action": intervention.action, "evidence": intervention.evidence})
        if intervention.action in ("escalate", "terminate"):
            trajectory.status = "halted"
            trajectory.metadata["stop_reason"] = f"{intervention.action} by {intervention.detector}"
            if intervention.action == "escalate":
                trajectory.metadata["needs_review"] = True
            return True
        if intervention.context is not None:
            context[:] = intervention.context
        if intervention.message:
            self._add(trajectory, context, {"role": "user", "content": intervention.message})
        return False

    @staticmethod
    def _add(trajectory: Trajectory, context: list[dict[str, Any]], message: dict[str, Any]) -> None:
        trajectory.messages.append(message)
        context.append(message)


@dataclass(frozen=True)
class MemoryOptions:
    """How memory reaches the prompt: the token budget (`memory_budget_tokens` in the config), the
    embedder that ranks entries by relevance to the task (None: recency only), the token counter;
    and `skill_tokens` (`skill_in_prompt_tokens`): the budget of the best-matching skill's body placed
    in the prompt (agent/inline.py; 0: none, the agent reads skills with read_skill), `category`,
    the task's category, which a skill may declare it is written for (one attempt's; "" unknown), and
    `skill_min_similarity` (`skill_in_prompt_min_similarity`): how close one of a distilled skill's
    entries must be to the task for it to be placed."""

    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    embedder: Any = None
    count_tokens: Callable[[str], int] = estimate_tokens
    skill_tokens: int = 0
    category: str = ""
    skill_min_similarity: float = ENTRY_MIN_SIMILARITY


@dataclass(frozen=True)
class SystemPrompt:
    text: str
    memory: MemorySelection
    inline: InlineSkill | None = None  # the skill whose body was placed in the prompt


# Appended when prompts/system.md never mentions `memory`, so memory reaches the agent either way.
DEFAULT_MEMORY_BLOCK = """
{% if memory.entries %}
Notes from earlier tasks (most relevant to this task first):
{% for note in memory.entries %}
- {{ note.text }}
{% endfor %}
{% if memory.left_out %}({{ memory.left_out }} more notes left out to fit the memory budget.)
{% endif %}
{% endif %}"""


def skill_summaries(workspace: Workspace, skills_root: str = SKILLS_ROOT) -> list[dict[str, str]]:
    """The template's `skills`: name, description (one line) and the directory the skill's files are
    copied to in the sandbox. Raises SkillError when the library is invalid."""
    return [{"name": s.name, "description": " ".join(s.description.split()), "path": f"{skills_root}/{s.name}"}
            for s in workspace.skills(require_verification=False, max_body_chars=10**9)]


def render_template(text: str, *, skills: list[dict[str, str]], memory: MemorySelection,
                    skills_root: str = SKILLS_ROOT, source: str = "prompts/system.md") -> str:
    """Render a system prompt template in jinja2's sandbox (the template is evolver-written).
    Variables: `skills` (name, description, path), `memory` (entries with text, tags, source,
    created, relevance; left_out, malformed, total, budget_tokens, used_tokens) and `skills_root`.
    A template that never names `memory` gets DEFAULT_MEMORY_BLOCK appended."""
    from jinja2 import TemplateError, meta
    from jinja2.sandbox import SandboxedEnvironment

    environment = SandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    try:
        if "memory" not in meta.find_undeclared_variables(environment.parse(text)):
            text = text.rstrip("\n") + "\n" + DEFAULT_MEMORY_BLOCK
        return environment.from_string(text).render(skills=skills, memory=memory, skills_root=skills_root)
    except TemplateError as exc:
        raise UserError(f"{source}: template error: {exc}") from None
    except RecursionError:
        raise UserError(f"{source}: template error: too deeply nested") from None


def template_problem(text: str) -> str | None:
    """Why `text` cannot serve as prompts/system.md (rendered with one example skill and memory entry),
    or None. The rules step checks the evolver's template with this."""
    example = MemorySelection(entries=[ShownEntry("an example note", ("tag",), "example", None, 0.5, 5)],
                              left_out=1, total=2, budget_tokens=DEFAULT_BUDGET_TOKENS, used_tokens=5)
    try:
        render_template(text, skills=[{"name": "example", "description": "Use when testing.",
                                       "path": f"{SKILLS_ROOT}/example"}], memory=example)
    except UserError as exc:
        return str(exc).removeprefix("prompts/system.md: ")
    return None


def build_system_prompt(workspace: Workspace, native_tools: bool, *, instruction: str = "",
                        memory: MemoryOptions = MemoryOptions(), skills_root: str = SKILLS_ROOT) -> SystemPrompt:
    """prompts/system.md rendered for one task, as the agent sees it at the start of an attempt:
    each skill's name, description and path (bodies come only through read_skill), and the memory
    entries most relevant to `instruction` that fit the budget."""
    selection = select_memory(workspace.memory_entries(), instruction, budget_tokens=memory.budget_tokens,
                              embedder=memory.embedder, count_tokens=memory.count_tokens)
    text = render_template(workspace.system_prompt(), skills=skill_summaries(workspace, skills_root),
                           memory=selection, skills_root=skills_root, source=str(workspace.system_prompt_path))
    if not native_tools:
        text = f"{text.rstrip()}\n\n{TEXT_PROTOCOL_HELP}\n"
    inline = placed_skill(workspace, instruction, memory)
    if inline is not None:  # last, after what every task shares (the model's evaluated prefix)
        text = f"{text.rstrip()}\n\n{inline.text()}"
    return SystemPrompt(text, selection, inline)


def placed_skill(workspace: Workspace, instruction: str, memory: MemoryOptions) -> InlineSkill | None:
    """The skill whose body goes into the prompt of a task with this instruction (and memory.category),
    or None: the one home of that choice, which the agent's prompt and the gate's check of a pruned
    library (engine/placements.py) both read. Without a model: the same library, task and options
    place the same skill."""
    if memory.skill_tokens <= 0:
        return None
    return best_skill(workspace.skills(require_verification=False, max_body_chars=10**9), instruction,
                      budget_tokens=memory.skill_tokens, embedder=memory.embedder,
                      count_tokens=memory.count_tokens, category=memory.category,
                      min_similarity=memory.skill_min_similarity)


def render_system_prompt(workspace: Workspace, native_tools: bool, *, instruction: str = "",
                         memory: MemoryOptions = MemoryOptions(), skills_root: str = SKILLS_ROOT) -> str:
    """build_system_prompt's text."""
    return build_system_prompt(workspace, native_tools, instruction=instruction, memory=memory,
                               skills_root=skills_root).text


def read_skill_text(workspace: Workspace, name: str, mount: SkillMount | None = None) -> str:
    """What read_skill returns: the skill's body, then the list of its files with their paths in the
    sandbox (when they were copied in). Raises SkillError for an unknown or invalid name."""
    skill = workspace.skill(name.strip())
    listing = mount.listing(skill.name) if mount is not None else ""
    return f"{skill.body.rstrip()}\n\n{listing}\n" if listing else skill.body
