#!/bin/bash
set -e
printf '08:00 service started\n08:05 user ada logged in\n08:07 report generated\n08:09 user ada logged out\n08:15 service stopped\n' > /app/events.log
