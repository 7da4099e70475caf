#!/bin/bash
set -e
sqlite3 /opt/helpdesk/tickets.db "UPDATE tickets SET status = 'archived' WHERE status = 'closed';"
