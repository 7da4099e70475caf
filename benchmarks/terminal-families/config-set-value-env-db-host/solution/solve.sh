#!/bin/bash
set -e
sed -i 's/^DB_HOST *=.*/DB_HOST=db.internal/' /app/.env
