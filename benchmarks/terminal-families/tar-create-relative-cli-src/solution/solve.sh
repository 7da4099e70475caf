#!/bin/bash
set -e
tar -czf /home/dev/src.tar.gz -C /home/dev/projects/cli-tool src
