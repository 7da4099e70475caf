#!/bin/bash
set -e
git -C /home/dev/docs log -1 --format=%s > /home/dev/latest.txt
