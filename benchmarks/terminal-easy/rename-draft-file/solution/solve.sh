#!/bin/bash
set -e
mv /app/draft.md /app/final.md
