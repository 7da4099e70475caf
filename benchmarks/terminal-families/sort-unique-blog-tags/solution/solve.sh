#!/bin/bash
set -e
sort -u /home/blog/tags.txt > /home/blog/tags_sorted.txt
