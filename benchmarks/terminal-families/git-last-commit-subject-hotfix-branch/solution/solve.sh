#!/bin/bash
set -e
git -C /data/repos/api log -1 --format=%s hotfix > /data/repos/hotfix_subject.txt
