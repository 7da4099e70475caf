#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /app/notes.txt > /app/notes_clean.txt
