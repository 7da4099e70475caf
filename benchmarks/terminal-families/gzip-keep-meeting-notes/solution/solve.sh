#!/bin/bash
set -e
gzip -k /home/dev/notes/meeting-notes.md
