#!/bin/bash
set -e
mkdir -p /app/releases/2.3.0
tar -xzf /app/dist/webapp-2.3.0.tar.gz -C /app/releases/2.3.0
