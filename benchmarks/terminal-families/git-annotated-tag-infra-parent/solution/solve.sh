#!/bin/bash
set -e
git -C /data/repos/infra tag -a staging-ok -m 'Staging verified' HEAD~1
