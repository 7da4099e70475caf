"""The explore phase's settings (engine/phase_explore.py)."""

from __future__ import annotations

from pydantic import Field

from adaptive_skill.config.base import _Strict


class ExploreConfig(_Strict):
    """The explore phase (docs/engine.md, "Exploring and distilling"; in a whole config on by default
    under distill, config/defaults.py): after the judge,
    each task of the batch that did not pass is attempted again, up to `passes` times, with the agent
    sampling at `temperature`, until one attempt passes; its worked commands go to the evolver
    (observations/<task>/explored.json). The 1.5B's failures recur at a low temperature, so its
    trajectories there never hold their fix; a hotter sample sometimes does (docs/log/results-runs.md, run 16).
    `reflect`: an explore attempt is also told what the task's attempt before it did wrong (its
    failed commands and why, agent/reflect.py), where that attempt did not pass (label-free: the
    judge's verdict), after its instruction: for a model that does not
    recover from an error inside an attempt (the 1.5B on git, docs/results.md)."""

    passes: int = Field(0, ge=0, le=10)
    temperature: float = Field(1.0, gt=0.0, le=2.0)
    reflect: bool = False
    # label-free (trajectory_only): a task counts as passed only when the judge passes one of its
    # attempts and another attempt (the batch's or an explore pass's) left the same files (the state
    # digest, sandbox/state.py); every batch task is attempted again, the judge's passes included.
    agree: bool = False
    # with agree: whether the count also needs the judge's pass. False: agreement alone, and the explore
    # attempts are not judged (the batch's still are: for the reflect notes and the evolver's inputs).
    # On the family suite the judge passed every agreeing attempt (15 of 15) and cost 5.6 s a verdict
    # (docs/observe.md); on terminal-easy it removed 2 wrong counts of 36.
    judge: bool = True
    # with agree: each task the vote counted is attempted once more by this model (another agent model,
    # at the batch's sampling), and counts only when that attempt left the same files as the counted one.
    # Two attempts of one model that make the same mistake agree; another model errs otherwise (run 27's
    # batch: confirmed by the 0.5B, 7 of 7 counts right, docs/observe.md). None: no confirmation.
    confirm_model: str | None = Field(None, min_length=1)
