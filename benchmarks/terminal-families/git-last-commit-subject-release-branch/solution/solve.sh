#!/bin/bash
set -e
git -C /opt/src/agent log -1 --format=%s release-1.2 > /opt/src/release_tip.txt
