#!/bin/bash
S=/app/site
chown -R -P www:www "$S"          # -R does not follow symlinks (-P); -h on links themselves is not needed
find "$S" -type d -exec chmod 755 {} +
find "$S" -type f -exec chmod 644 {} +
find "$S/bin" -maxdepth 1 -type f -name '*.sh' -exec chmod 755 {} +
chmod 750 "$S/config"
find "$S/config" -type f -exec chmod 640 {} +
chown root:www "$S/config/secrets.env"
find "$S/uploads" -type d -exec chmod 2775 {} +
