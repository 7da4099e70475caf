#!/bin/bash
set -e
rm /app/old.log
