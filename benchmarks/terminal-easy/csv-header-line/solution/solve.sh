#!/bin/bash
set -e
head -n 1 /app/data.csv > /app/header.txt
