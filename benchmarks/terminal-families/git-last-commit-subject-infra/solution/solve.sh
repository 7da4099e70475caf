#!/bin/bash
set -e
git -C /app/infra log -1 --format=%s > /app/report/subject.txt
