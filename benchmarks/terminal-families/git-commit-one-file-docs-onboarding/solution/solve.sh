#!/bin/bash
set -e
cd /home/dev/docs
git add -- onboarding.md
git commit -q -m 'Clarify laptop setup step'
