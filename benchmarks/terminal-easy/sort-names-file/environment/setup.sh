#!/bin/bash
set -e
printf 'mallory\nalice\ndave\nbob\ncarol\n' > /app/names.txt
