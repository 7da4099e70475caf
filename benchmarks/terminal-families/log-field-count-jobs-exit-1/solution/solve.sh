#!/bin/bash
set -e
awk -F'\t' '$4 == "1"' /opt/ci/jobs.tsv | wc -l > /opt/ci/exit1_count.txt
