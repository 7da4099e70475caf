#!/bin/bash
set -e
sed -n '3,9p' /backup/dump.sql > /backup/head_part.sql
