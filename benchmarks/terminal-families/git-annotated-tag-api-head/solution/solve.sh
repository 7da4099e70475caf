#!/bin/bash
set -e
git -C /app/api tag -a v0.1.0 -m 'First public API version'
