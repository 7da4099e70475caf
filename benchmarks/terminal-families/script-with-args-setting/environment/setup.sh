#!/bin/bash
set -e
cd /app
mkdir -p /app/scripts
