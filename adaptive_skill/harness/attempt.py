"""One task attempt from start to finish: environment, agent, verification, cleanup."""

from __future__ import annotations

import time
from pathlib import Path

from adaptive_skill.harness.providers import NetworkRefused, SandboxProvider
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.harness.verify import stop_leftovers, verify
from adaptive_skill.llm.base import BudgetExceeded, ModelUnavailable
from adaptive_skill.protocols import Agent, Sandbox
from adaptive_skill.sandbox.programs import PROBE, Programs, read_probe
from adaptive_skill.sandbox.state import capture_state
from adaptive_skill.tasks.model import Task

VERIFIER_MARK = "--- verifier ---"  # in an attempt's detail: the agent's part before it, the tests' output after
PROBE_TIMEOUT = 30


def run_attempt(task: Task, agent: Agent, provider: SandboxProvider,
                labels: dict[str, str] | None = None, state_dir: Path | None = None) -> AttemptResult:
    """`state_dir`: where the task's paths are kept as the agent left them (sandbox/state.py), read
    after its processes are killed and before the tests are copied in; None keeps nothing."""
    durations: dict[str, float] = {}
    programs = None

    def result(passed: bool, reward: float | None, mode, detail: str, trajectory: str | None = None):
        return AttemptResult(task_id=task.id, agent=agent.name, passed=passed, reward=reward,
                             failure_mode=None if passed else mode, category=task.category,
                             difficulty=task.difficulty, detail=detail[-4000:],
                             durations=durations, trajectory_path=trajectory,
                             programs=programs.to_dict() if programs else None)

    clock = time.monotonic()
    try:
        provider.prepare(task)
    except Exception as exc:  # a build failure is the task's problem, not the batch's
        durations["build"] = round(time.monotonic() - clock, 3)
        return result(False, None, "build_error", _describe(exc))
    durations["build"] = round(time.monotonic() - clock, 3)

    clock = time.monotonic()
    try:
        sandbox = provider.open(task, labels)
        sandbox.start()
    except NetworkRefused as exc:
        return result(False, None, "network_refused", str(exc))
    except Exception as exc:
        return result(False, None, "sandbox_error", f"could not start the sandbox: {_describe(exc)}")
    durations["start"] = round(time.monotonic() - clock, 3)

    try:
        try:
            for source, target in task.files_in:  # compose volumes of the task's files: a copy, not a mount
                sandbox.copy_in(source, target)
        except Exception as exc:
            return result(False, None, "sandbox_error", f"could not copy the task's files in: {_describe(exc)}")
        if provider.kind != "local":  # a local sandbox's /logs is the host's own
            # /logs/agent is the agent's own (Harbor): kept through verification, never read by us.
            try:
                sandbox.exec("mkdir -p /logs/agent && chmod 0777 /logs/agent", timeout=30)
            except Exception:  # a broken sandbox shows in the agent's run and the verifier's
                pass
        programs = probe_programs(sandbox)  # before the agent: what the task's image itself has
        clock = time.monotonic()
        try:
            outcome = agent.solve(task, sandbox)
        except (BudgetExceeded, ModelUnavailable):
            raise  # not this task's failure: the run is out of budget, or its model unreachable, and stops
        except Exception as exc:
            from adaptive_skill.harness.results import AgentOutcome

            outcome = AgentOutcome(status="error", detail=f"agent crashed: {_describe(exc)}")
        durations["agent"] = round(time.monotonic() - clock, 3)

        if state_dir is not None and sandbox.info.isolated:
            clock = time.monotonic()
            same_shell = task.layout == "terminal-bench" and task.run_tests_in_same_shell
            try:
                stop_leftovers(sandbox, sandbox.shell_pid if same_shell else None)
            except Exception:  # a broken sandbox: the capture says what it could not read
                pass
            capture_state(sandbox, task, state_dir)
            durations["state"] = round(time.monotonic() - clock, 3)

        try:
            verdict = verify(sandbox, task)
        except Exception as exc:
            return result(False, None, "sandbox_error", f"verification could not run: {_describe(exc)}",
                          outcome.trajectory_path)
        durations["verify"] = verdict.duration_sec
    finally:
        sandbox.close()

    # The tests decide; when they fail, a broken agent run is the more useful explanation.
    mode = verdict.failure_mode
    if not verdict.passed and mode == "unresolved" and outcome.status != "completed":
        mode = "agent_timeout" if outcome.status == "timeout" else "agent_error"
    detail = f"agent: {outcome.detail}\n{VERIFIER_MARK}\n{verdict.output}"
    return result(verdict.passed, verdict.reward, mode, detail, outcome.trajectory_path)


def probe_programs(sandbox: Sandbox) -> Programs | None:
    """Which common programs the started sandbox has (sandbox/programs.py), asked outside the agent's
    shell; None when the probe could not run (it is a hint for the evolver, never a failure)."""
    try:
        result = sandbox.exec(PROBE, timeout=PROBE_TIMEOUT)
    except Exception:  # a broken sandbox shows in the agent's run
        return None
    if result.timed_out or result.exit_code != 0:
        return None
    return read_probe(result.output)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
