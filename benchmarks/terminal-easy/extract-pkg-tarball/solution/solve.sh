#!/bin/bash
set -e
tar -xzf /app/pkg.tar.gz -C /app
