#!/bin/bash
set -e
tail -n 1 /app/events.log > /app/last_event.txt
