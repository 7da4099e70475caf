"""Terminal tasks: the model, loading both layouts, and splitting a suite."""

from adaptive_skill.tasks.loader import TaskError, find_task, load_suite, load_task
from adaptive_skill.tasks.model import Task
from adaptive_skill.tasks.split import batch_for_cycle, split_suite

__all__ = ["Task", "TaskError", "batch_for_cycle", "find_task", "load_suite", "load_task", "split_suite"]
