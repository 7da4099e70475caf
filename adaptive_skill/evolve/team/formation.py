"""Team formation: a leader who fits the failures, collaborators drawn from a collaboration matrix.

VirSci's rule: the leader draws collaborators with probability proportional to past co-work
counts + 1, so old partners are likelier while new partnerships stay possible. Freshness and
diversity set quotas (share of collaborators new to the leader, share from other areas) that
decide which pool each draw is taken from; the matrix weights the draw within the pool.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from adaptive_skill.config import TeamConfig, TeamMemberConfig
from adaptive_skill.files import read_json, write_json_atomic

Member = TeamMemberConfig


class CollaborationMatrix:
    """Symmetric co-work counts by member name, persisted as JSON (survives --resume and new rosters)."""

    def __init__(self, counts: dict[str, dict[str, int]] | None = None, path: Path | None = None,
                 sessions: list[str] | None = None):
        self.counts = counts or {}
        self.path = path
        self.sessions = sessions or []  # sessions already counted: a redone evolve phase counts once

    @classmethod
    def load(cls, path: Path | None) -> CollaborationMatrix:
        data = read_json(path, {}) if path is not None else {}
        data = data if isinstance(data, dict) else {}
        counts = data.get("counts", {})
        return cls({a: {b: int(n) for b, n in row.items()} for a, row in counts.items()}, path,
                   [str(s) for s in data.get("sessions", [])])

    def count(self, a: str, b: str) -> int:
        return self.counts.get(a, {}).get(b, 0)

    def weight(self, a: str, b: str) -> int:
        return self.count(a, b) + 1  # + 1: a pair that never worked together can still be drawn

    def record(self, session: str, names: list[str]) -> None:
        """One more co-work for every pair of the team (once per session)."""
        if session in self.sessions:
            return
        self.sessions.append(session)
        for a in names:
            for b in names:
                if a != b:
                    row = self.counts.setdefault(a, {})
                    row[b] = row.get(b, 0) + 1

    def save(self) -> None:
        if self.path is not None:
            write_json_atomic(self.path, self.to_dict())

    def to_dict(self) -> dict:
        return {"counts": {a: dict(sorted(row.items())) for a, row in sorted(self.counts.items())},
                "sessions": self.sessions}


@dataclass
class Draw:
    """One collaborator slot: the pool it was drawn from, each candidate's probability, the pick."""

    slot: int
    wanted: dict[str, bool | None]  # fresh / diverse: True, False, or None when that quota is off
    relaxed: list[str]  # quotas dropped because no candidate met them
    probabilities: dict[str, float]
    chosen: str

    def to_dict(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Formation:
    leader: Member
    collaborators: list[Member]
    guest: Member | None
    draws: list[Draw] = field(default_factory=list)
    fit: dict[str, int] = field(default_factory=dict)  # failed observations in each member's areas

    @property
    def members(self) -> list[Member]:
        return [self.leader, *self.collaborators]

    def to_dict(self) -> dict:
        return {"leader": self.leader.name, "collaborators": [m.name for m in self.collaborators],
                "guest": self.guest.name if self.guest else None, "fit": self.fit,
                "draws": [d.to_dict() for d in self.draws]}


def quota(share: float | None, slots: int) -> int | None:
    return None if share is None else math.floor(share * slots + 0.5)


def form_team(config: TeamConfig, matrix: CollaborationMatrix, failed: Counter[str],
              rng: random.Random) -> Formation:
    """`failed`: failed observations per judge category (the topic the team will work on)."""
    roster = list(config.members)
    fit = {m.name: sum(failed[a] for a in m.areas) for m in roster}
    best = max(fit.values())
    leader = rng.choice([m for m in roster if fit[m.name] == best])
    slots = config.size - 1
    fresh_quota, diverse_quota = quota(config.freshness, slots), quota(config.diversity, slots)
    chosen: list[Member] = []
    draws: list[Draw] = []
    for slot in range(slots):
        remaining = [m for m in roster if m is not leader and m not in chosen]
        fresh_count = sum(1 for m in chosen if matrix.count(leader.name, m.name) == 0)
        diverse_count = sum(1 for m in chosen if _diverse(leader, m))
        wanted = {"fresh": None if fresh_quota is None else fresh_count < fresh_quota,
                  "diverse": None if diverse_quota is None else diverse_count < diverse_quota}
        pool, relaxed = _pool(remaining, leader, matrix, wanted)
        weights = [matrix.weight(leader.name, m.name) for m in pool]
        total = sum(weights)
        pick = rng.choices(pool, weights=weights)[0]
        chosen.append(pick)
        draws.append(Draw(slot + 1, wanted, relaxed,
                          {m.name: round(w / total, 6) for m, w in zip(pool, weights, strict=True)}, pick.name))
    team = [leader, *chosen]
    guest = _guest(roster, team, failed, rng) if config.invite else None
    return Formation(leader, chosen, guest, draws, fit)


def _diverse(leader: Member, member: Member) -> bool:
    return not set(leader.areas) & set(member.areas)


def _pool(remaining: list[Member], leader: Member, matrix: CollaborationMatrix,
          wanted: dict[str, bool | None]) -> tuple[list[Member], list[str]]:
    def fits(member: Member, keys: list[str]) -> bool:
        facts = {"fresh": matrix.count(leader.name, member.name) == 0, "diverse": _diverse(leader, member)}
        return all(wanted[k] is None or facts[k] == wanted[k] for k in keys)

    # Diversity gives way first: who the leader knows is the matrix's own business.
    for keys, relaxed in ((["fresh", "diverse"], []), (["fresh"], ["diverse"]), ([], ["fresh", "diverse"])):
        pool = [m for m in remaining if fits(m, keys)]
        if pool:
            return pool, [k for k in relaxed if wanted[k] is not None]
    return remaining, []


def _guest(roster: list[Member], team: list[Member], failed: Counter[str], rng: random.Random) -> Member | None:
    """The outsider whose areas best cover the failures the team's own areas miss."""
    outside = [m for m in roster if m not in team]
    if not outside:
        return None
    covered = {a for m in team for a in m.areas}

    def complement(member: Member) -> tuple[int, int]:
        return (sum(failed[a] for a in set(member.areas) - covered), sum(failed[a] for a in member.areas))

    best = max(complement(m) for m in outside)
    return rng.choice([m for m in outside if complement(m) == best])
