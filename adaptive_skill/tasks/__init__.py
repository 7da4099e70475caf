"""Terminal tasks: the model, loading both layouts, and splitting a suite."""

from adaptive_skill.tasks.loader import TaskError, find_task, load_suite, load_task, scan_suite
from adaptive_skill.tasks.model import RefusedTask, Suite, Task, scale_timeouts
from adaptive_skill.tasks.split import batch_for_cycle, cycle_batch, holdout_twins, proposed_batch, split_suite

__all__ = ["RefusedTask", "Suite", "Task", "TaskError", "batch_for_cycle", "cycle_batch", "find_task", "holdout_twins",
           "load_suite", "load_task", "proposed_batch", "scale_timeouts", "scan_suite", "split_suite"]
