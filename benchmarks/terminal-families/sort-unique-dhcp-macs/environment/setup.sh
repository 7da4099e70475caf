#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/dhcp/seen_macs.txt)"
cat > /srv/dhcp/seen_macs.txt <<'__END_OF_FILE__'
dc:a6:32:11:5b:3f
3c:22:fb:1a:00:01
3c:22:fb:1a:00:07
8c:85:90:4e:21:aa
3c:22:fb:1a:00:07
a4:83:e7:02:9c:10
3c:22:fb:1a:00:01
3c:22:fb:1a:00:07
dc:a6:32:11:5b:3f
8c:85:90:4e:21:aa
a4:83:e7:02:9c:10
dc:a6:32:11:5b:3f
3c:22:fb:1a:00:01
3c:22:fb:1a:00:07
dc:a6:32:11:5b:3f
__END_OF_FILE__
mkdir -p "$(dirname /srv/dhcp/macs.txt)"
