#!/bin/bash
set -e
git -C /home/dev/handbook tag -a handbook-v1 -m 'First published handbook'
