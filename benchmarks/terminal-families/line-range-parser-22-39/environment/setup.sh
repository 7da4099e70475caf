#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/lib/parser.py)"
cat > /home/dev/lib/parser.py <<'__END_OF_FILE__'
"""A small INI-like parser."""

import re


SECTION = re.compile(r"^\[(\w+)\]$")
PAIR = re.compile(r"^(\w+)\s*=\s*(.*)$")
COMMENT = re.compile(r"^\s*[#;]")
BLANK = re.compile(r"^\s*$")


def find_sections(text):
    """Return (line number, match) for the sections in text."""
    sections = []
    for number, line in enumerate(text.splitlines(), 1):
        match = SECTION.match(line)
        if match:
            sections.append((number, match))
    return sections


def find_pairs(text):
    """Return (line number, match) for the pairs in text."""
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        match = PAIR.match(line)
        if match:
            pairs.append((number, match))
    return pairs


def find_comments(text):
    """Return (line number, match) for the comments in text."""
    comments = []
    for number, line in enumerate(text.splitlines(), 1):
        match = COMMENT.match(line)
        if match:
            comments.append((number, match))
    return comments


def find_blanks(text):
    """Return (line number, match) for the blanks in text."""
    blanks = []
    for number, line in enumerate(text.splitlines(), 1):
        match = BLANK.match(line)
        if match:
            blanks.append((number, match))
    return blanks
__END_OF_FILE__
mkdir -p "$(dirname /home/dev/snippet.py)"
