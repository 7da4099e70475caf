#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/bin
