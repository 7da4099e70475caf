#!/bin/bash
set -e
git -C /app/repo log -1 --format=%s > /app/last_subject.txt
