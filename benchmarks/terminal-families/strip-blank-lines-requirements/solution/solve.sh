#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /home/dev/app/requirements.txt > /home/dev/app/requirements.min.txt
