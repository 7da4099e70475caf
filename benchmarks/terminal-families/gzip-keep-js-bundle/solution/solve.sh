#!/bin/bash
set -e
gzip -k /app/build/bundle.js
