#!/bin/bash
set -e
git -C /app/site tag -a release-2024-05 -m 'May release' main~1
