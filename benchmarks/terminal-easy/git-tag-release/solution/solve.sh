#!/bin/bash
set -e
git -C /app/repo tag v1.0
