#!/bin/bash
set -e
mkdir -p /app/notes
printf 'buy milk\n' > /app/notes/todo.txt
printf 'call Bob\n' > /app/notes/calls.txt
