#!/bin/bash
set -e
git init /app/project
