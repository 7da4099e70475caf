"""SpiralMonitor: the agent's StepMonitor. It reads each step once, lets the detectors look, and
weighs what they report into one risk:

    risk <- risk * decay ** (steps since last look) + sum(weight * score of this step's detections)

Hard limits stop the attempt at once. Otherwise, when the risk reaches the threshold on a step
that itself set off a detector, and the agent had `cooldown_steps` to react to the last
intervention, the next rung of the ladder is taken (nudge, restart, rollback, escalate,
terminate) and the risk starts again from zero. Quiet steps walk the ladder back down.
Every detection and intervention lands in `trajectory.events`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adaptive_skill.embed import EmbedderError
from adaptive_skill.protocols import Embedder, Intervention
from adaptive_skill.spiral import interventions, text
from adaptive_skill.spiral.detectors import Detection, Detector, History, build_detectors, weight_of
from adaptive_skill.spiral.detectors.monologue import is_self_referential
from adaptive_skill.spiral.explain import explain
from adaptive_skill.spiral.files import file_writes
from adaptive_skill.spiral.outcome import time_goal
from adaptive_skill.spiral.progress import Ledger
from adaptive_skill.spiral.settings import check_of, only_looks, settings_of
from adaptive_skill.spiral.steps import StepView, error_signature, took_action, unknown_tool
from adaptive_skill.trajectory import StepRecord, Trajectory, message_text, step_failure
from adaptive_skill.trajectory.text import normalize_action

if TYPE_CHECKING:
    from adaptive_skill.config import SpiralConfig

_NEEDS_VECTORS = ("semantic_repetition", "goal_drift")


class SpiralMonitor:
    def __init__(self, config: SpiralConfig, embedder: Embedder | None = None):
        self.config = config
        self.embedder = embedder if any(getattr(config.detectors, d).enabled for d in _NEEDS_VECTORS) else None
        self.history = History()
        self.ledger = Ledger()
        self.detectors: list[Detector] | None = None  # built on the first step, once the instruction is known
        self.risk = 0.0
        self.level = -1  # index into the ladder of the last rung taken
        self.last_intervention: int | None = None
        self.quiet_steps = 0
        self.last_index = 0  # the last step read
        self.cwd: str | None = None
        self.totals = {"steps": 0.0, "tokens": 0.0, "cost": 0.0, "elapsed_sec": 0.0}
        self.records: list[dict[str, Any]] = []  # detections and interventions, as in trajectory.events
        self.failed_steps: list[int] = []  # steps that failed, by the kernel's one definition
        self.embedder_error: str | None = None
        self.timed = False  # the task is about speed: durations are results, not noise

    # -- StepMonitor -------------------------------------------------------------------------

    def observe(self, step: StepRecord, trajectory: Trajectory,
                context: list[dict[str, Any]]) -> Intervention | None:
        if self.detectors is None:
            vector = self._instruction_vector(trajectory.instruction)
            self.detectors = build_detectors(self.config, trajectory.instruction, vector, self.embedder)
            self.timed = time_goal(trajectory.instruction)
        pending = []  # this step, and malformed turns before it the agent did not show the monitor
        for record in reversed(trajectory.steps):
            if record.index <= self.last_index:
                break
            pending.insert(0, record)
        if step.index > self.last_index and all(s is not step for s in pending):
            pending.append(step)
        self.last_index = max(self.last_index, step.index)
        views = self._views(pending, trajectory)
        fired: list[Detection] = []
        for view in views:
            fired = self._look(view, trajectory)
            if any(d.hard for d in fired):
                return self._intervene("terminate", [d for d in fired if d.hard], view, trajectory, context)
        if not fired or self.risk < self.config.threshold:
            return None
        if self.last_intervention is not None and views[-1].index - self.last_intervention < self.config.cooldown_steps:
            return None
        self.level = min(self.level + 1, len(self.config.ladder) - 1)
        return self._intervene(self.config.ladder[self.level], fired, views[-1], trajectory, context)

    # -- reading steps -----------------------------------------------------------------------

    def _views(self, records: list[StepRecord], trajectory: Trajectory) -> list[StepView]:
        views = [self._view(r, trajectory) for r in records]
        if self.embedder is not None:
            try:
                vectors = self.embedder.embed([v.intent for v in views])
                for view, vector in zip(views, vectors, strict=True):
                    view.vector = vector if view.intent else None
            except EmbedderError as exc:  # the monitor goes on without embeddings rather than stop the agent
                self.embedder, self.embedder_error = None, str(exc)
                trajectory.metadata["spiral_embedder_error"] = str(exc)
        return views

    def _view(self, record: StepRecord, trajectory: Trajectory) -> StepView:
        acted = took_action(record)
        if record.tool is not None:
            action_key = normalize_action(record.tool, record.argument, self.cwd)
        else:
            action_key = f"unknown:{unknown_tool(record.error)}" if acted else None
        failure = step_failure(record)
        failed = failure is not None
        if failed:
            self.failed_steps.append(record.index)
        shown = record.output if record.output or not record.error else record.error
        output_print = text.fingerprint(shown, keep_durations=self.timed)
        novel = acted and self._novel(action_key, output_print, bool(shown.strip()))
        message = trajectory.messages[record.message_index] if record.message_index < len(trajectory.messages) else {}
        thought = message_text(message.get("content")) if message.get("role") == "assistant" else ""
        self.totals["steps"] = float(record.index)
        self.totals["tokens"] += record.prompt_tokens + record.completion_tokens
        self.totals["cost"] += record.cost
        self.totals["elapsed_sec"] += record.llm_duration_sec + record.duration_sec
        bash = record.tool == "bash"
        signature = error_signature(record, action_key) if failed else ""
        view = StepView(index=record.index, tool=record.tool, argument=record.argument, output=record.output,
                        exit_code=record.exit_code, timed_out=record.timed_out, error=record.error,
                        thought=thought, action_key=action_key, output_print=output_print, failure=failure,
                        error_signature=signature, waits=bash and text.waits(record.argument), novel=novel,
                        self_reference=is_self_referential(thought), cwd=self.cwd, totals=dict(self.totals),
                        writes=file_writes(record.argument) if bash else [],
                        settings=settings_of(record.argument, record.output) if bash else (),
                        timed=self.timed)
        if bash:  # a command that sets nothing checks itself (as its action says), unless it only looks
            view.check = check_of(record.argument) if view.settings or view.writes else \
                (None if only_looks(record.argument) else action_key.removeprefix("bash:"))
        self.ledger.record(view)
        if record.tool == "bash":
            if target := text.cd_target(record.argument):
                self.cwd = target
            elif record.argument.strip() == "pwd" and record.exit_code == 0 and record.output.strip():
                self.cwd = record.output.strip().split("\n")[-1]
        return view

    def _novel(self, action_key: str | None, output_print: str, has_output: bool) -> bool:
        """Something changed: an output not seen lately, a different result from the last run of
        the same action (a test that now passes), or a new action whose effect has no output."""
        recent = self.history.recent(self.history.steps.maxlen or 64)
        if output_print not in {s.output_print for s in recent}:
            return True
        last_run = next((s for s in reversed(recent) if s.action_key == action_key), None)
        if last_run is None:
            return not has_output
        return last_run.output_print != output_print

    def _instruction_vector(self, instruction: str):
        if self.embedder is None or not instruction.strip():
            return None
        try:
            return self.embedder.embed([instruction])[0]
        except EmbedderError as exc:
            self.embedder, self.embedder_error = None, str(exc)
            return None

    # -- weighing ----------------------------------------------------------------------------

    def _look(self, view: StepView, trajectory: Trajectory) -> list[Detection]:
        self.history.steps.append(view)
        fired = [d for detector in self.detectors or [] if (d := detector.feed(view, self.history)) is not None]
        self.risk = self.risk * self.config.decay + sum(weight_of(self.config, d.detector) * d.score for d in fired)
        self.quiet_steps = 0 if fired else self.quiet_steps + 1
        if self.quiet_steps >= self.config.calm_steps and self.level >= 0:
            self.level, self.quiet_steps = self.level - 1, 0  # the agent got out: the next loop starts lower
        fired.sort(key=lambda d: -weight_of(self.config, d.detector) * d.score)
        for detection in fired:
            event = detection.to_event(view.index)
            event["evidence"]["risk"] = round(self.risk, 3)
            trajectory.events.append(event)
            self.records.append(event)
        return fired

    def _intervene(self, action: str, fired: list[Detection], view: StepView, trajectory: Trajectory,
                   context: list[dict[str, Any]]) -> Intervention:
        main = fired[0]
        rung = None if main.hard else self.level + 1
        evidence = {"score": round(self.risk, 3), "risk": round(self.risk, 3), "threshold": self.config.threshold,
                    "rung": rung, "summary": interventions.describe(fired), "span_start": main.span_start,
                    "detections": [{"detector": d.detector, "score": round(d.score, 3)} for d in fired],
                    "explanation": explain(action, fired, self.risk, self.config.threshold, rung)}
        new_context: list[dict[str, Any]] | None = None
        message = ""
        if action == "nudge":
            message = interventions.nudge_message(fired)
        elif action == "restart":
            new_context = interventions.restart_context(trajectory)
            message = interventions.progress_summary(self.ledger, fired, list(self.history.steps))
        elif action == "rollback":
            new_context, dropped = interventions.rollback_context(trajectory, context, main.span_start or view.index)
            evidence["dropped_steps"] = dropped
            message = interventions.rollback_message(fired, dropped)
        self.risk, self.last_intervention = 0.0, view.index
        self.records.append({"step": view.index, "detector": main.detector, "score": evidence["score"],
                             "action": action, "evidence": evidence})
        return Intervention(action, main.detector, message, evidence, new_context)  # type: ignore[arg-type]
