"""Agreement across attempts (explore.agree): the label-free estimate's vote. One verdict of the 1.5B
judge passes too many wrong attempts (precision 56% on 80 train attempts); a pass it gives to an
attempt whose final files another attempt of the same task also reached is right far more often
(82% [66, 92], docs/observe.md "How precise it is"). A lone state, however confident the judge, is
not a success.

The rule, in one place: a task counts as passed when one of its attempts is judged at or above the
threshold and at least one other attempt left the same files (the state digest, sandbox/state.py),
files that are not the task's untouched ones (what a fresh container of its image holds: two
attempts that changed nothing agree, and run 25 counted two such tasks as passed). The attempt that
counts is the first such one; its worked commands are what the evolver learns from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AGREED = "agreed.json"  # per task explore attempted under explore.agree: the vote's outcome (observations/<task>)


@dataclass
class Vote:
    """One attempt of a task: 0 is the batch's, 1.. the explore passes'."""

    attempt: int
    score: float | None  # the judge's, 0-10
    digest: str | None  # of the files it left (None: not captured, or cut at the size cap)
    commands: list[str] = field(default_factory=list)  # its worked commands
    trivial: bool = False  # its files differ from the untouched ones only trivially (near_noop)


def agreed(votes: list[Vote], pass_threshold: float | None, untouched: str | None = None) -> Vote | None:
    """The first attempt the judge passed whose final files another attempt also left; None if none.
    `pass_threshold` None (explore.judge: false): the first attempt whose files another also left,
    the judge not asked. `untouched`: the digest of the task's files before any attempt, which agrees
    with nothing."""
    for vote in votes:
        unjudged = pass_threshold is None
        if ((not unjudged and (vote.score is None or vote.score < pass_threshold)) or not vote.digest
                or vote.digest == untouched or vote.trivial):
            continue
        if any(other is not vote and other.digest == vote.digest for other in votes):
            return vote
    return None


def outcome(votes: list[Vote], pass_threshold: float | None, untouched: str | None = None, *,
            confirmed: dict[str, Any] | None = None) -> dict[str, Any]:
    """What agreed.json holds for a task: whether it counts as passed, by which attempt, and every vote.
    `confirmed` (explore.confirm_model, engine/phase_explore.py): another model's attempt of a counted task;
    the task counts only where it left the same files (`same`)."""
    hit = agreed(votes, pass_threshold, untouched)
    if hit is not None and confirmed is not None and not confirmed.get("same"):
        hit = None
    return {"passed": hit is not None, "attempt": hit.attempt if hit else None,
            "commands": list(hit.commands) if hit else [], "untouched": untouched,
            "votes": [{"attempt": v.attempt, "score": v.score, "digest": v.digest,
                       **({"trivial": True} if v.trivial else {})} for v in votes],
            **({"confirmed": confirmed} if confirmed is not None else {})}


def state_digest_of(state_dir: Path) -> str | None:
    """The digest of an attempt's kept final state (state.json beside it), None when there is none
    or it was cut at the size cap (a cut state is not the whole state, so it cannot agree)."""
    from adaptive_skill.sandbox.state import load_state

    state = load_state(state_dir) if state_dir.is_dir() else None
    if state is None or state.error or not all(root.complete for root in state.roots):
        return None
    return state.digest


def near_noop(changes: list[tuple[str, str]] | None, named: list[str]) -> bool:
    """Whether an attempt's changes (sandbox/state.changed_paths) are too slight to count: none, none
    that touches a path the instruction names (the path itself or inside it), or, where it names
    none, nothing but new empty files and directories. Unknown changes (None) are not judged here:
    the digest's own rules apply."""
    if changes is None:
        return False
    if named:
        return not any(path == n or path.startswith(n.rstrip("/") + "/") for path, _ in changes for n in named)
    return all(kind == "added-empty" for _, kind in changes)


def trivial_change(state_dir: Path, untouched_dir: Path, instruction: str) -> bool:
    """near_noop for an attempt's kept state against the task's untouched state (engine/phase_explore.py)."""
    from adaptive_skill.sandbox.state import allowed_path, changed_paths, load_state, named_paths

    after = load_state(state_dir) if state_dir.is_dir() else None
    before = load_state(untouched_dir) if untouched_dir.is_dir() else None
    if after is None or before is None or after.error or before.error:
        return False
    named = [p for p in named_paths(instruction) if allowed_path(p)]
    return near_noop(changed_paths(state_dir, after, untouched_dir, before), named)
