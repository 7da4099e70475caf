#!/bin/bash
# Verifier: runs the checks in check.py and writes the reward (1 pass, 0 fail).
mkdir -p /logs/verifier
cd /app 2>/dev/null || true
if python3 /tests/check.py; then
  echo "RESULT: PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "RESULT: FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
