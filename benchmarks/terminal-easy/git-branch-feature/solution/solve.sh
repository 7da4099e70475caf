#!/bin/bash
set -e
git -C /app/repo branch feature
