"""TeamEvolver: a team of member agents in place of the single evolver (evolver.mode: team).

    form      leader by fit to the failures; collaborators drawn from the collaboration matrix
    discuss   K turns over the observations; the leader names the pattern
    ideas     K turns of proposals; the top ones by confidence
    review    novelty figures, blind vote
    write     leader drafts, collaborators revise, self-review (revise once, then discard and
              go back to ideas)
    apply     the SKILL.md is written into a scratch copy of the workspace and goes through the
              same rules step as the single evolver (evolver.enforce_rules): one repair turn by
              the leader, then reverts

The team's output is text, never a command: nothing the model writes is executed, so no sandbox
is needed. The only file it produces is skills/<name>/SKILL.md with `name` checked against the
skill-name pattern, in a scratch copy; rules.py then checks that copy like any evolver's.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adaptive_skill.config import EvolveConfig
from adaptive_skill.embed import make_embedder
from adaptive_skill.evolve.evolver import (
    EvolveOutcome,
    apply_editable,
    copy_editable,
    enforce_rules,
    settle,
    shown_failures,
)
from adaptive_skill.evolve.library import SkillHistory, load_history, record_discarded, rejected_commits
from adaptive_skill.evolve.outcome import Changes, Violation
from adaptive_skill.evolve.relevance import Failures
from adaptive_skill.evolve.team import discussion, ideas, review, writing
from adaptive_skill.evolve.team.formation import CollaborationMatrix, Formation, form_team
from adaptive_skill.evolve.team.novelty import NoveltyIndex
from adaptive_skill.evolve.team.observations import read_observations
from adaptive_skill.evolve.team.prompts import idea_line, library_text, repair_prompt
from adaptive_skill.evolve.team.schemas import SkillChange
from adaptive_skill.evolve.team.session import SessionEnded, Team, Transcript, spend_dict
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.protocols import LLM, Embedder
from adaptive_skill.runs import RunDir
from adaptive_skill.skills import NAME_PATTERN

TEAM_DIR = "team"  # in the run directory: the collaboration matrix and the skills the team discarded


@dataclass
class TeamOutcome(EvolveOutcome):
    team: dict[str, Any] = field(default_factory=dict)  # the session in brief; team.json has every turn

    def to_dict(self) -> dict:
        return {**super().to_dict(), "team": self.team}


@dataclass
class Change:
    action: str
    target: str
    content: str


class TeamEvolver:
    def __init__(self, llm: LLM, config: EvolveConfig, *, run: RunDir | None = None,
                 accounting: Accounting | None = None, embedder: Embedder | None = None):
        """`run`: where the collaboration matrix persists and events go (none: in memory, silent)."""
        self.llm, self.config, self.run, self.accounting = llm, config, run, accounting
        self.team_config = config.evolver.team
        self.embedder = embedder or make_embedder(config.models.embedder)
        state = run.root / TEAM_DIR if run is not None else None
        self.matrix_path = state / "collaboration.json" if state else None
        self.discarded_path = state / "discarded.jsonl" if state else None
        paraphrase = self.embedder.paraphrase_similarity
        self.duplicate_similarity = self.team_config.duplicate_similarity or paraphrase
        self.min_novelty = self.team_config.min_turn_novelty
        if self.min_novelty is None:  # a turn adds nothing when all it says is a paraphrase of earlier turns
            self.min_novelty = round(1.0 - paraphrase, 4)

    def evolve(self, workspace: Path, observations: Path, out_dir: Path, *, history: list[str] | None = None,
               drafts: Path | None = None, task_id: str = "evolve") -> TeamOutcome:
        out_dir.mkdir(parents=True, exist_ok=True)
        transcript = Transcript(out_dir / "team.json", task_id, self.run.event if self.run else None)
        outcome: TeamOutcome | None = None
        try:
            outcome = self._session(transcript, workspace, observations, history or [], drafts, task_id)
            return outcome
        finally:  # written even when the session dies: the events so far are not the only record
            transcript.save(status=outcome.status if outcome else "failed",
                            outcome=outcome.to_dict() if outcome else None)

    def _session(self, transcript: Transcript, workspace: Path, observations: Path, history: list[str],
                 drafts: Path | None, task_id: str) -> TeamOutcome:
        if not (self.config.evolve_skills and not self.config.prompt_only):
            reason = "the team writes skills, and skills may not change (evolve_skills / prompt_only)"
            transcript.record("skipped", reason=reason)
            return TeamOutcome(changes=Changes(), summary=None, status="skipped", team={"skipped": reason})
        skills = load_history(workspace, rejected_commits=rejected_commits(self.run), discarded=self.discarded_path)
        index = NoveltyIndex(self.embedder, skills, self.duplicate_similarity)
        digest = read_observations(observations, pass_threshold=self.config.judge.pass_threshold,
                                   max_chars=self.team_config.digest_chars, drafts=drafts)
        matrix = CollaborationMatrix.load(self.matrix_path)
        formation = form_team(self.team_config, matrix, digest.failed, random.Random(f"{self.config.seed}:{task_id}"))
        transcript.record("formed", **formation.to_dict(), failed_categories=dict(digest.failed),
                          thresholds={"min_turn_novelty": self.min_novelty,
                                      "duplicate_similarity": self.duplicate_similarity})
        team = Team(self.llm, formation, transcript, task_id, self.accounting)
        brief: dict[str, Any] = {"leader": formation.leader.name,
                                 "collaborators": [m.name for m in formation.collaborators],
                                 "guest": formation.guest.name if formation.guest else None, "rounds": []}
        status, change = "no_proposal", None
        try:
            change = self._deliberate(team, skills, index, digest.text, history, brief)
            status = "agreed" if change else "no_proposal"
        except SessionEnded as ended:
            status, brief["ended"] = ended.status, str(ended)
        finally:
            matrix.record(task_id, [m.name for m in formation.members])
            matrix.save()
            brief["matrix"] = matrix.to_dict()["counts"]
        outcome = TeamOutcome(changes=Changes(), status=status, trajectories=[str(transcript.path)],
                              summary=self._summary(formation, change) if change else None)
        if change is not None and (ended := self._apply(team, workspace, change, outcome, skills,
                                                                shown_failures(observations, self.config))):
            brief["ended"] = ended
        brief["spent"] = spend_dict(team.spent)
        outcome.team = brief
        transcript.record("end", status=status, change=f"{change.action} {change.target}" if change else None,
                          mutated=outcome.mutated, reverted=[v.to_dict() for v in outcome.reverted],
                          repaired=outcome.repaired, **spend_dict(team.spent))
        return outcome

    # -- the team's work ---------------------------------------------------------------------

    def _deliberate(self, team: Team, skills: SkillHistory, index: NoveltyIndex, digest: str,
                    history: list[str], brief: dict[str, Any]) -> Change | None:
        c, tc = self.config, self.team_config
        library = library_text(skills.current, c.max_skills)
        topic = discussion.discuss(team, digest=digest, library=library, history=history, turns=tc.turns,
                                   min_novelty=self.min_novelty, embedder=self.embedder)
        brief["discussion"] = {"turns": topic.turns, "stopped_early": topic.stopped_early, "novelty": topic.novelty,
                               "pattern": topic.summary.pattern}
        discarded: list[str] = []
        for number in range(1, tc.idea_rounds + 1):
            round_brief: dict[str, Any] = {"round": number}
            brief["rounds"].append(round_brief)
            generated = ideas.generate(
                team, topic=topic.text(), library=library, existing=set(skills.names()),
                can_create=len(skills.current) < c.max_skills, protect_skills=c.protect_skills, discarded=discarded,
                turns=tc.turns, keep=tc.top_ideas, min_novelty=self.min_novelty, embedder=self.embedder,
                round_number=number)
            round_brief["ideas"] = {"turns": generated.turns, "stopped_early": generated.stopped_early,
                                    "proposed": len(generated.proposals)}
            candidates = review.assess(generated.kept, index)
            winner = review.vote(team, candidates, library=library, round_number=number) if candidates else None
            round_brief["candidates"] = [candidate.to_dict() for candidate in candidates]
            if winner is None:
                continue
            round_brief["winner"] = winner.number
            proposal = winner.proposal
            draft = writing.write(team, proposal, current=skills.current_text(proposal.idea.target)
                                  if proposal.idea.action == "edit" else None,
                                  body_limit=c.skills.max_body_chars, turns=tc.turns, min_novelty=self.min_novelty,
                                  embedder=self.embedder, round_number=number)
            verdict = writing.self_review(team, proposal, draft, index, attempt=1, round_number=number)
            round_brief["self_review"] = [verdict.passed]
            if not verdict.passed:
                draft = writing.rework(team, proposal, draft, verdict.feedback, body_limit=c.skills.max_body_chars)
                verdict = writing.self_review(team, proposal, draft, index, attempt=2, round_number=number)
                round_brief["self_review"].append(verdict.passed)
            if verdict.passed:
                return Change(proposal.idea.action, proposal.idea.target, draft)
            # Second failure: discard the idea and go back to idea generation.
            discarded.append(idea_line(proposal.idea))
            team.transcript.record("discarded", round=number, target=proposal.idea.target,
                                   feedback=verdict.feedback)
            self._remember_discarded(proposal.idea.target, draft, "failed self-review twice", team.task_id)
        return None

    # -- applying it under the rules ---------------------------------------------------------

    def _apply(self, team: Team, workspace: Path, change: Change, outcome: TeamOutcome,
               skills: SkillHistory, failures: Failures) -> str | None:
        """Write the change into a scratch copy, run the rules step, apply what passed. Returns why
        the repair turn could not run to the end (a spent budget), else None. `failures`: what the
        observations show of the failures, which no skill may teach or name (rules.check)."""
        ended = None
        with tempfile.TemporaryDirectory(prefix="adaptive-skill-team-") as scratch:
            before, after = Path(scratch) / "before", Path(scratch) / "after"
            copy_editable(workspace, before)
            shutil.copytree(before, after, symlinks=True)
            _write_change(after, change)
            library = library_text(skills.current, self.config.max_skills)

            def repair(repairable: list[Violation]) -> None:
                prompt = repair_prompt([v.message for v in repairable], change.action, change.target, change.content,
                                       library, self.config.skills.max_body_chars)
                fixed = team.ask(team.leader, "repair", prompt, SkillChange)
                if fixed is not None:  # the repair replaces the team's change; nothing else is in `after`
                    shutil.rmtree(after)
                    shutil.copytree(before, after, symlinks=True)
                    _write_change(after, Change(fixed.action, fixed.target, fixed.content))

            try:
                enforce_rules(before, after, self.config, outcome, repair, failures=failures)
            except SessionEnded as exc:  # settle() below reverts whatever the repair left broken
                ended = str(exc)
            settle(before, after, self.config, outcome, failures=failures)
            team.transcript.record("rules", violations=[v.to_dict() for v in outcome.violations],
                                   repaired=outcome.repaired, reverted=[v.to_dict() for v in outcome.reverted],
                                   changes=outcome.changes.to_dict())
            if outcome.reverted and not outcome.mutated:
                self._remember_discarded(change.target, change.content, "reverted by the rules", team.task_id)
            apply_editable(after, workspace)
        return ended

    def _remember_discarded(self, name: str, text: str, reason: str, task_id: str) -> None:
        if self.discarded_path is not None:
            record_discarded(self.discarded_path, name=name, text=text, reason=reason, task=task_id)

    @staticmethod
    def _summary(formation: Formation, change: Change) -> str:
        others = ", ".join(m.name for m in formation.collaborators)
        return f"team of {formation.leader.name} with {others}: {change.action} skill {change.target}"


def _write_change(root: Path, change: Change) -> None:
    """The team's one file. The name is checked before it becomes a path; a symlinked skill
    directory is left alone (rules.py then sees no change)."""
    if not NAME_PATTERN.match(change.target) or len(change.target) > 64:
        return
    folder = root / "skills" / change.target
    if folder.is_symlink() or (folder / "SKILL.md").is_symlink():
        return
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(change.content if change.content.endswith("\n") else change.content + "\n",
                                     encoding="utf-8")
