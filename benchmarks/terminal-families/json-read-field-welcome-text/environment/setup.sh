#!/bin/bash
set -e
cd /app
mkdir -p /app/i18n
cat > /app/i18n/messages.json <<'EOF'
{
  "locale": "en-GB",
  "messages": {
    "welcome": "Welcome back, friend!",
    "logout": "You have been signed out.",
    "error": "Something went wrong."
  }
}
EOF
