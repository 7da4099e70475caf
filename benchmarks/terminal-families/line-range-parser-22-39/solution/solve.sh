#!/bin/bash
set -e
sed -n '22,39p' /home/dev/lib/parser.py > /home/dev/snippet.py
