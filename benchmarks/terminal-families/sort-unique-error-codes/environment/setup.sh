#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/app/codes.txt)"
cat > /var/log/app/codes.txt <<'__END_OF_FILE__'
E2011
E1004
E4040
E2011
E5000
E1004
E2011
E5000
E2011
E5000
E2010
E3100
E1001
E2011
E3100
E2010
E2011
E2010
__END_OF_FILE__
mkdir -p "$(dirname /tmp/codes.txt)"
