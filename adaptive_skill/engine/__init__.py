"""AdaptiveSkillEngine: the overnight cycle, top to bottom.

    Solve    a batch from the rotating train pool, N workers; labels stored apart        solve.py
    Observe  signals, compression and the label-free judge; calibration against labels   observe.py
    Explore  the batch's unpassed tasks again, sampled hotter (explore.passes)            explore.py
    Evolve   the evolver in a sandbox on a copy of the workspace; rules enforced in code  evolve.py
    Gate     holdout tasks, mutated vs accepted workspace, paired                        gate.py, holdout.py
    Commit   accepted: commit + tag evo-N; rejected: rollback commit (history kept)      gate.py
    Converge EGL window, max cycles, budgets, stop file, signals                         stopping.py
    Propose  new train tasks from the cycle's failures (task_proposal.enabled)           propose.py

Every phase is a unit: its output is written to runs/<id>/cycles/<n>/<phase>.json and the
checkpoint records it, so `--resume` skips finished phases, and inside Solve and Gate the batch
runner skips finished attempts.

cycle.py holds the engine itself (start, resume, the run, one cycle, a phase as a unit); each phase
is a function of the engine in the module named beside it above; holdout.py evaluates a workspace on
the holdout tasks (the gate's rounds, replay, benchmarks); roles.py makes the models and sandboxes.
"""

from adaptive_skill.engine.cycle import AdaptiveSkillEngine
from adaptive_skill.engine.explore import explore_seed
from adaptive_skill.engine.holdout import (
    HoldoutRound,
    _sampling_key,
    export_baseline,
    gate_seed,
    keep_rounds,
    verifier_score,
)
from adaptive_skill.engine.stopping import RESUMABLE, Stop

__all__ = ["RESUMABLE", "AdaptiveSkillEngine", "HoldoutRound", "Stop", "_sampling_key", "explore_seed",
           "export_baseline", "gate_seed", "keep_rounds", "verifier_score"]
