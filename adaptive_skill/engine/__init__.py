"""AdaptiveSkillEngine: the overnight cycle, top to bottom.

    Solve    a batch from the rotating train pool, N workers; labels stored apart        phase_solve.py
    Observe  signals, compression and the label-free judge; calibration against labels   phase_observe.py
    Explore  the batch's unpassed tasks again, sampled hotter (explore.passes)            phase_explore.py
    Evolve   the evolver in a sandbox on a copy of the workspace; rules enforced in code  phase_evolve.py
    Gate     holdout tasks, mutated vs accepted workspace, paired                        phase_gate.py
    Commit   accepted: commit + tag evo-N; rejected: rollback commit (history kept)      phase_commit.py
    Converge EGL of the cycle; convergence over the window                               phase_converge.py
    Propose  new train tasks from the cycle's failures (task_proposal.enabled)           phase_propose.py

Every phase is a unit: its output is written to runs/<id>/cycles/<n>/<phase>.json and the
checkpoint records it, so `--resume` skips finished phases, and inside Solve and Gate the batch
runner skips finished attempts.

Everything the cycle calls of its own lives here; each phase is a function of the engine in the
phase_<name>.py named beside it above (named so that none shares a name with a package it calls:
evolve/, observe/, proposals/):

    cycle.py        the engine itself: start, resume, the run, one cycle, a phase as a unit
    records.py      the phases' typed results and the checkpoint, as written and read back on resume
    holdout.py      a workspace evaluated on the holdout tasks (the gate's rounds, replay, benchmarks)
    sequential.py   the gate's rule: the sequential paired test, whole candidate and per skill
    gate_replay.py  a tag's gate run again with its recorded seeds (`adaptive-skill replay`)
    stopping.py     every reason a run stops (budgets, wall time, max cycles, signals, STOP file)
    roles.py        the models and sandboxes of the roles, each made when first needed
"""

from adaptive_skill.engine.cycle import AdaptiveSkillEngine
from adaptive_skill.engine.holdout import (
    HoldoutRound,
    _sampling_key,
    export_baseline,
    gate_seed,
    keep_rounds,
    verifier_score,
)
from adaptive_skill.engine.phase_explore import explore_seed
from adaptive_skill.engine.stopping import RESUMABLE, Stop

__all__ = ["RESUMABLE", "AdaptiveSkillEngine", "HoldoutRound", "Stop", "_sampling_key", "explore_seed",
           "export_baseline", "gate_seed", "keep_rounds", "verifier_score"]
