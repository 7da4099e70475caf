"""Novelty assessment: figures from embeddings, then a blind vote.

Blind as in VirSci: a reviewer sees only the candidates, their figures and the library, never
the discussion, the topic summary, who proposed what, or how confident they were. Candidates as
close to an existing, earlier or rejected skill as a paraphrase are struck before the vote.
The winner has the most votes; ties go to the more novel, then the more confident, then the
earlier candidate.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from adaptive_skill.evolve.team.ideas import Proposal
from adaptive_skill.evolve.team.novelty import Figures, NoveltyIndex, idea_text
from adaptive_skill.evolve.team.prompts import review_prompt
from adaptive_skill.evolve.team.schemas import Ballot
from adaptive_skill.evolve.team.session import Team


@dataclass
class Candidate:
    number: int
    proposal: Proposal
    figures: Figures
    votes: int = 0

    def to_dict(self) -> dict:
        return {"number": self.number, "author": self.proposal.author, "action": self.proposal.idea.action,
                "target": self.proposal.idea.target, "confidence": self.proposal.idea.confidence,
                "figures": self.figures.to_dict(), "votes": self.votes}


def assess(proposals: list[Proposal], index: NoveltyIndex) -> list[Candidate]:
    candidates = []
    for number, proposal in enumerate(proposals, 1):
        idea = proposal.idea
        exclude = idea.target if idea.action == "edit" else None
        candidates.append(Candidate(number, proposal, index.assess(idea_text(idea), exclude=exclude)))
    return candidates


def vote(team: Team, candidates: list[Candidate], *, library: str, round_number: int) -> Candidate | None:
    for candidate in candidates:
        team.transcript.record("novelty", round=round_number, **candidate.to_dict())
    standing = [c for c in candidates if not c.figures.duplicate]
    struck = [c.number for c in candidates if c.figures.duplicate]
    if not standing:
        team.transcript.record("winner", round=round_number, winner=None, struck=struck,
                               reason="every candidate repeats an existing, earlier or rejected skill")
        return None
    if len(standing) == 1:
        team.transcript.record("winner", round=round_number, winner=standing[0].number, struck=struck,
                               reason="unopposed", tally={})
        return standing[0]
    # Renumbered 1..n on the ballot: a reviewer must not learn from gaps that something was struck.
    ballot = {i: c for i, c in enumerate(standing, 1)}
    prompt = review_prompt(library, [(i, c.proposal.idea, c.figures) for i, c in ballot.items()])
    tally: Counter[int] = Counter()
    for member in team.members:
        reply = team.ask(member, "review", prompt, Ballot)
        if reply is None:
            continue
        valid = reply.choice in ballot
        team.transcript.record("vote", round=round_number, voter=member.name,
                               choice=ballot[reply.choice].number if valid else None, valid=valid,
                               reason=reply.reason)
        if valid:
            ballot[reply.choice].votes += 1
            tally[ballot[reply.choice].number] += 1
    winner = max(standing, key=lambda c: (c.votes, c.figures.novelty, c.proposal.idea.confidence, -c.number))
    team.transcript.record("winner", round=round_number, winner=winner.number, struck=struck,
                           tally=dict(sorted(tally.items())), reason="most votes")
    return winner
