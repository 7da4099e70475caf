#!/bin/bash
set -e
gzip -k /opt/metrics/cpu.tsv
