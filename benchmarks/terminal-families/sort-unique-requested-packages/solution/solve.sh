#!/bin/bash
set -e
sort -u /app/deps/requested.txt > /app/deps/packages.txt
