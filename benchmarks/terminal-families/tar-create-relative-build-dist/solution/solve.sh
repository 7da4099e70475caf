#!/bin/bash
set -e
tar -czf /app/build/dist.tar.gz -C /app/build dist
