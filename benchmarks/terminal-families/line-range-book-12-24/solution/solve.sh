#!/bin/bash
set -e
sed -n '12,24p' /app/story.txt > /app/story_excerpt.txt
