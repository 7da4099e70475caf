#!/bin/bash
set -e
sed -i 's/^timeout *=.*/timeout=45/' /app/config/worker.conf
