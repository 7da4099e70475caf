#!/bin/bash
set -e
cp /app/data/input.txt /app/data/input.copy
