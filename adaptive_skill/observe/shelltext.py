"""Text for readers: commands (the key that spots repeats, the short form) and cut lists."""

from __future__ import annotations

import re

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def normalize_command(command: str) -> str:
    """Whitespace-insensitive: `ls  -la` and `ls -la\\n` are the same command run again."""
    return " ".join(command.split()).rstrip(";").strip()


def short_command(command: str, keep_lines: int = 2, line_chars: int = 200) -> str:
    """A command cut for reading, never dropped: a heredoc keeps its opening line and everything
    after its terminator (what actually ran on the written file); other long commands keep their
    first and last lines. The count of elided lines is always said."""
    lines = command.strip("\n").splitlines() or [""]
    if len(lines) <= 2 * keep_lines + 1:
        return "\n".join(clip(line, line_chars) for line in lines)
    if match := _HEREDOC.search(lines[0]):
        terminator = match.group(2)
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == terminator), None)
        if end is not None:
            after = lines[end:end + 1 + keep_lines]
            rest = len(lines) - end - len(after)
            shown = [lines[0], f"  [... heredoc body: {end - 1} lines ...]", *after]
            if rest > 0:
                shown.append(f"  [... {rest} more lines ...]")
            return "\n".join(clip(line, line_chars) for line in shown)
    omitted = len(lines) - 2 * keep_lines
    shown = [*lines[:keep_lines], f"  [... {omitted} more lines ...]", *lines[-keep_lines:]]
    return "\n".join(clip(line, line_chars) for line in shown)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def head_tail(lines: list[str], limit: int, what: str = "lines") -> list[str]:
    """At most `limit` of `lines`, the first and the last, the last preferred (a failure's last
    line is usually its cause), with the number left out said in between."""
    if len(lines) <= limit:
        return list(lines)
    head = limit // 2
    tail = limit - head
    return [*lines[:head], f"[... {len(lines) - limit} more {what} ...]", *(lines[-tail:] if tail else [])]
