#!/bin/bash
set -e
mkdir -p /tmp/build/pkg/bin
printf '1.4.2\n' > /tmp/build/pkg/VERSION
printf '#!/bin/sh\necho tool\n' > /tmp/build/pkg/bin/tool.sh
tar -czf /app/pkg.tar.gz -C /tmp/build pkg
rm -rf /tmp/build
