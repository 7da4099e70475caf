#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /home/writer/draft.md > /home/writer/draft_tight.md
