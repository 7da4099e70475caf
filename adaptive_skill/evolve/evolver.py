"""The single evolver: an LLM agent with bash, as an unprivileged user inside a sandbox that holds
only a COPY of the workspace (read-write, its own) and the observations (root's, read-only). What
it leaves comes back through pullback.py (an allow-list: regular files and directories under
prompts/, skills/<name>/, memory/, within limits; everything else is refused and reported). Then
rules.py checks the result, including that the agent can load it; violations get one repair turn,
then whatever still breaks a rule is reverted."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from adaptive_skill.agent.loop import AgentLimits, TerminalAgent
from adaptive_skill.config import EvolveConfig
from adaptive_skill.evolve.digest import read_digest
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.outcome import Changes, EvolveOutcome, Violation
from adaptive_skill.evolve.prompts import evolution_instruction, evolver_system, repair_instruction
from adaptive_skill.evolve.pullback import pull_archive
from adaptive_skill.evolve.relevance import NO_FAILURES, Failures
from adaptive_skill.evolve.rules import EDITABLE_ROOTS, check, copy_tree, revert, skill_names
from adaptive_skill.protocols import LLM, Sandbox
from adaptive_skill.sandbox.untrusted import root_exec, unprivileged_user
from adaptive_skill.skills import DRAFTS_DIR

WORKSPACE_IN_SANDBOX = "/workspace"
OBSERVATIONS_IN_SANDBOX = "/observations"
EVOLVER_USER = "evolver"  # the unprivileged user the evolver's shell runs as (DockerSandbox user=)
REPAIR_TURNS = 8
# A digest of /observations (names, modes, owners, times, contents), taken as root before and after.
_OBSERVATIONS_DIGEST = f"cd / && tar --sort=name --numeric-owner -cf - {OBSERVATIONS_IN_SANDBOX[1:]} | sha256sum"


class Evolver:
    def __init__(self, llm: LLM, config: EvolveConfig, sandbox_factory: Callable[[], Sandbox]):
        self.llm, self.config, self.sandbox_factory = llm, config, sandbox_factory

    def evolve(self, workspace: Path, observations: Path, out_dir: Path, *, history: list[str] | None = None,
               drafts: Path | None = None, task_id: str = "evolve") -> EvolveOutcome:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="adaptive-skill-evolve-") as scratch:
            before, after = Path(scratch) / "before", Path(scratch) / "after"
            copy_editable(workspace, before)
            failures = shown_failures(observations, self.config)
            sandbox = self.sandbox_factory()
            try:
                sandbox.start()
                user = self._unprivileged_user(sandbox)
                sandbox.copy_in(observations, OBSERVATIONS_IN_SANDBOX)
                self._root_exec(sandbox, f"chown -R 0:0 {OBSERVATIONS_IN_SANDBOX} && "
                                f"chmod -R u=rwX,go=rX {OBSERVATIONS_IN_SANDBOX}")
                observed = self._root_exec(sandbox, _OBSERVATIONS_DIGEST)
                has_drafts = drafts is not None and drafts.is_dir() and any(drafts.iterdir())
                self._hand_over(sandbox, before, user, drafts if has_drafts else None)
                instruction = evolution_instruction(
                    skills=sorted(skill_names(before)), max_skills=self.config.max_skills,
                    body_limit=self.config.skills.max_body_chars, permissions=self._permissions(),
                    protect_skills=self.config.protect_skills, history=history or [], has_drafts=has_drafts,
                    index=_read_index(observations))
                first = self._agent(self.config.evolver.max_turns).run(
                    task_id, instruction, sandbox, out_dir / "evolver.json")
                outcome = EvolveOutcome(changes=Changes(), summary=first.submission, status=first.status,
                                        trajectories=[str(out_dir / "evolver.json")])
                self._pull(sandbox, before, after, outcome)

                def repair(repairable: list[Violation]) -> None:
                    # Show the evolver its own result minus what was already undone, and let it fix the rest.
                    self._root_exec(sandbox, f"rm -rf {WORKSPACE_IN_SANDBOX}")
                    self._hand_over(sandbox, after, user, None)
                    self._agent(REPAIR_TURNS).run(f"{task_id}-repair", repair_instruction(
                        [v.message for v in repairable]), sandbox, out_dir / "evolver-repair.json")
                    outcome.trajectories.append(str(out_dir / "evolver-repair.json"))
                    self._pull(sandbox, before, after, outcome)

                enforce_rules(before, after, self.config, outcome, repair, failures=failures)
                if self._root_exec(sandbox, _OBSERVATIONS_DIGEST) != observed:
                    outcome.violations.append(Violation(
                        "observations", "the observations changed in the sandbox (they are root's and read-only "
                        "to the evolver): nothing of them flows back, but the sandbox was not as expected",
                        [], repairable=False))
            finally:
                sandbox.close()
            settle(before, after, self.config, outcome, failures=failures)
            apply_editable(after, workspace)
        return outcome

    @staticmethod
    def _root_exec(sandbox: Sandbox, command: str) -> str:
        return root_exec(sandbox, command, "evolver sandbox setup")

    @staticmethod
    def _unprivileged_user(sandbox: Sandbox) -> str:
        """Who the evolver's shell is; refuse to go on when it is root (its root could rewrite anything
        in the container, observations included)."""
        return unprivileged_user(sandbox, EVOLVER_USER)

    def _hand_over(self, sandbox: Sandbox, source: Path, owner: str, drafts: Path | None) -> None:
        """Copy `source` in as /workspace (and drafts under skills/_drafts), owned by the evolver's user."""
        sandbox.copy_in(source, WORKSPACE_IN_SANDBOX)
        if drafts is not None:
            sandbox.copy_in(drafts, f"{WORKSPACE_IN_SANDBOX}/skills/{DRAFTS_DIR}")
        self._root_exec(sandbox, f"chown -R {owner} {WORKSPACE_IN_SANDBOX} && chmod -R u+rwX {WORKSPACE_IN_SANDBOX}")

    def _agent(self, max_steps: int) -> TerminalAgent:
        limits = AgentLimits.from_config(self.config, max_steps=max_steps)
        system = evolver_system(memory_budget_tokens=self.config.memory_budget_tokens,
                                body_limit=self.config.skills.max_body_chars)
        return TerminalAgent(self.llm, None, limits, system_prompt=system)

    def _permissions(self) -> dict[str, bool]:
        c = self.config
        return {"skills": c.evolve_skills and not c.prompt_only, "prompts": c.evolve_prompts,
                "memory": c.evolve_memory and not c.prompt_only}

    def _pull(self, sandbox: Sandbox, before: Path, after: Path, outcome: EvolveOutcome) -> None:
        """Bring /workspace back through the allow-list into a fresh `after`; every refusal is a
        violation, and the refused path keeps what `before` had."""
        if after.exists():
            shutil.rmtree(after)
        result = pull_archive(sandbox.read_archive(WORKSPACE_IN_SANDBOX), after, self.config.evolver.pullback,
                              top=WORKSPACE_IN_SANDBOX.strip("/"))
        refused = [Violation("pullback", refusal.message(), refusal.paths, repairable=False)
                   for refusal in result.refusals.values()]
        revert(refused, before, after)
        outcome.violations += refused
        outcome.reverted += refused


def enforce_rules(before: Path, after: Path, config: EvolveConfig, outcome: EvolveOutcome,
                  repair: Callable[[list[Violation]], None], *, failures: Failures = NO_FAILURES) -> None:
    """The rules step every evolver shares: permission problems are undone at once; budget and
    quality problems get one `repair` (which rewrites `after` in place); whatever still breaks a
    rule is then reverted. Records everything on `outcome`. `failures`: what the evolver was shown of
    the failures, which no skill may teach or name (rules.check)."""
    _, violations = check(before, after, config, failures=failures)
    outcome.violations += violations
    fixed_in_code = [v for v in violations if not v.repairable]
    revert(fixed_in_code, before, after)
    outcome.reverted += fixed_in_code
    repairable = [v for v in violations if v.repairable]
    if repairable:
        repair(repairable)
        _, remaining = check(before, after, config, failures=failures)
        remaining_messages = {v.message for v in remaining}
        outcome.repaired = [v.message for v in repairable if v.message not in remaining_messages]
        revert(remaining, before, after)
        outcome.reverted += remaining


def settle(before: Path, after: Path, config: EvolveConfig, outcome: EvolveOutcome, *,
           failures: Failures = NO_FAILURES) -> None:
    """Final check: record the changes; anything still breaking a rule is reverted, and if the agent
    still could not load the result, all of it is."""
    outcome.changes, leftover = check(before, after, config, failures=failures)
    if leftover:  # reverting restores `before`, which met the rules
        revert(leftover, before, after)
        outcome.reverted += leftover
        outcome.changes, _ = check(before, after, config, failures=failures)
    if not outcome.changes.empty and load_problems(after):
        everything = Violation("load", "the result still would not load: every change reverted", list(EDITABLE_ROOTS),
                               repairable=False)
        revert([everything], before, after)
        outcome.reverted.append(everything)
        outcome.changes, _ = check(before, after, config, failures=failures)


def shown_failures(observations: Path, config: EvolveConfig) -> Failures:
    """What the evolver's digest of the observations shows (the failed commands, tasks and their
    files), which no skill may teach or name (rules.check)."""
    return read_digest(observations, pass_threshold=config.judge.pass_threshold).failures()


def copy_editable(source: Path, dest: Path) -> None:
    """prompts/, skills/, memory/ of `source` into `dest`: directories and regular files only."""
    dest.mkdir(parents=True, exist_ok=True)
    for root in EDITABLE_ROOTS:
        if (source / root).is_dir() and not (source / root).is_symlink():
            copy_tree(source / root, dest / root)


def apply_editable(source: Path, workspace: Path) -> None:
    """Make workspace's prompts/, skills/, memory/ equal to source's; nothing else is touched, and no
    link is ever followed (a link in `source` is skipped, a link in the workspace removed, not entered)."""
    for root in EDITABLE_ROOTS:
        target = workspace / root
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.exists():
            shutil.rmtree(target)
        if (source / root).is_dir() and not (source / root).is_symlink():
            copy_tree(source / root, target)
        else:
            target.mkdir()


def _read_index(observations: Path) -> str:
    """The observations' index.md as the host wrote it (never a link), for the evolver's first message."""
    path = observations / "index.md"
    if path.is_symlink() or not path.is_file():
        return ""
    return path.read_text(encoding="utf-8", errors="replace")
