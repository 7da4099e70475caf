#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /opt/jobs/schedule.txt > /tmp/schedule_noblank.txt
