#!/bin/bash
set -e
git -C /app/webapp log -1 --format=%s feature/search > /app/feature_subject.txt
