#!/bin/bash
set -e
find /app/docs -type f -name '*.md' | sort > /app/markdown_files.txt
