#!/bin/bash
set -e
mkdir /app/reports
