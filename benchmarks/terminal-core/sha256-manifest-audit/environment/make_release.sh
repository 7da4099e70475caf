#!/bin/bash
set -e
mkdir -p /app/release/bin /app/release/lib/plugins /app/release/share/doc
cd /app/release
printf '#!/bin/sh\necho "tool v2.3.1"\n' > bin/tool
printf '#!/bin/sh\nexec tool --daemon\n' > bin/toold
for i in 1 2 3 4 5; do seq $((i*100)) > lib/libcore.so.$i; done
echo "plugin alpha" > lib/plugins/alpha.so
echo "plugin beta" > lib/plugins/beta.so
echo "plugin gamma" > lib/plugins/gamma.so
echo "Release notes for 2.3.1" > "share/doc/RELEASE NOTES.txt"
echo "MIT License" > share/doc/LICENSE
echo "config_version=3" > share/default.conf
find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum > /app/release.sha256
# tampering after the manifest was written
echo 'cp /etc/shadow /tmp/.s' >> bin/toold
printf 'plugin beta\n' > lib/plugins/beta.so          # same content: NOT modified
echo "plugin gamma (patched)" > lib/plugins/gamma.so
seq 301 > lib/libcore.so.3
rm share/doc/LICENSE
echo "backdoor" > lib/plugins/.hidden.so
echo "extra" > "share/doc/notes 2.txt"
touch -d '2020-01-01' bin/tool                        # timestamp change only: NOT modified
