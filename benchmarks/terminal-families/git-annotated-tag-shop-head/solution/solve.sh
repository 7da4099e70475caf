#!/bin/bash
set -e
git -C /app/repo tag -a v1.0 -m 'Release 1.0'
