#!/bin/bash
set -e
awk '$1 == "root"' /tmp/ps_snapshot.txt | wc -l > /tmp/root_procs.txt
