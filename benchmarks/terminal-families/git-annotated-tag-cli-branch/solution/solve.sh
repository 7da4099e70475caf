#!/bin/bash
set -e
git -C /opt/src/cli tag -a v1.2.0-rc1 -m 'Release candidate 1 for 1.2.0' release-1.2
