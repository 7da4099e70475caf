#!/bin/bash
set -e
cd /data/repos/api
git add -- tests/test_tokens.py
git commit -q -m 'Add token tests'
