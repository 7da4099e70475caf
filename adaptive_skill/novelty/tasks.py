"""What the proposer asks the model for: one task, structured so it could be run as a terminal task.

The category is restricted to the suite's categories (the judge's list) by building the schema
at run time: a JSON-schema enum lets grammar-constrained models (the embedded one) only emit
valid values, and the archive's cells are exactly those categories.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
_MAX_CHARS = {"title": 120, "instruction": 1500, "rationale": 400}


class ProposedTask(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a model adding a field should not cost an iteration

    title: str = Field(min_length=3, description="a short name for the task")
    instruction: str = Field(min_length=20,
                             description="what the agent must do in the terminal, and how success is checked")
    category: str = Field(min_length=1, description="the kind of terminal work")
    difficulty: Difficulty
    rationale: str = Field(min_length=1, description="why this expert would set this task")

    # Upper limits are checked here, not in the JSON schema: llama.cpp unrolls maxLength into one
    # grammar rule per character and crashes on limits this size.
    @field_validator("title", "instruction", "rationale")
    @classmethod
    def _not_too_long(cls, value: str, info: ValidationInfo) -> str:
        limit = _MAX_CHARS[info.field_name]
        if len(value) > limit:
            raise ValueError(f"at most {limit} characters, got {len(value)}")
        return value

    def text(self) -> str:
        """What gets embedded: the task itself, not the argument for it."""
        return f"{self.title}\n{self.instruction}"


def task_schema(categories: Sequence[str]) -> type[ProposedTask]:
    """ProposedTask with `category` limited to `categories`."""
    if not categories:
        raise ValueError("a task schema needs at least one category")
    allowed = Literal[tuple(categories)]  # type: ignore[valid-type]
    return create_model("ProposedTask", __base__=ProposedTask,
                        category=(allowed, Field(description="the kind of terminal work")))
