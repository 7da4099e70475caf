#!/bin/bash
set -e
find /home/dev/project -type f -name '*.py' | sort > /home/dev/python_files.txt
