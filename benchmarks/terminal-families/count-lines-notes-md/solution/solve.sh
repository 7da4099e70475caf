#!/bin/bash
set -e
wc -l < /home/dev/notes.md > /home/dev/notes.count
