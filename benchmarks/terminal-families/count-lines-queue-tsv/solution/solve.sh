#!/bin/bash
set -e
wc -l < /opt/queue/jobs.tsv > /opt/queue/njobs.txt
