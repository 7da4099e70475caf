#!/bin/bash
set -e
tar -czf /app/notes.tar.gz -C /app notes
