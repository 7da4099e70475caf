#!/bin/bash
set -e
git -C /app/repo checkout develop
