"""Models for every role: the LLM protocol, the litellm client, the embedded and scripted models.

Importing this package is cheap: litellm and llama.cpp load on first use.
"""

from adaptive_skill.llm.accounting import Accounting, CallRecord, Totals
from adaptive_skill.llm.base import (
    LLM,
    BudgetExceeded,
    LLMConfigError,
    LLMError,
    LLMResponse,
    StructuredOutputError,
    ToolCall,
    Usage,
)
from adaptive_skill.llm.client import LLMClient, make_llm

__all__ = [
    "LLM", "Accounting", "BudgetExceeded", "CallRecord", "LLMClient", "LLMConfigError", "LLMError", "LLMResponse",
    "StructuredOutputError", "ToolCall", "Totals", "Usage", "make_llm",
]
