#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/fw/firewall.log)"
cat > /srv/fw/firewall.log <<'__END_OF_FILE__'
2024-07-01T00:00:01 ALLOW TCP 10.0.0.5:51234 -> 10.0.1.10:443 rule=web-in
2024-07-01T00:00:02 DENY TCP 185.220.101.4:40022 -> 10.0.1.10:22 rule=ssh-block
2024-07-01T00:00:04 ALLOW UDP 10.0.0.7:5353 -> 224.0.0.251:5353 rule=mdns
2024-07-01T00:00:09 DENY UDP 45.155.205.9:123 -> 10.0.1.10:123 rule=ntp-ext
2024-07-01T00:00:10 ALLOW TCP 10.0.0.8:60001 -> 10.0.1.11:5432 rule=deny-list-bypass
2024-07-01T00:00:15 INFO policy reloaded: default deny, 14 rules
2024-07-01T00:00:20 ALLOW TCP 10.0.0.5:51240 -> 10.0.1.10:443 rule=web-in
2024-07-01T00:00:31 DENY TCP 185.220.101.4:40030 -> 10.0.1.10:3389 rule=rdp-block
2024-07-01T00:00:40 INFO Deny counter reset
2024-07-01T00:00:52 ALLOW ICMP 10.0.0.9 -> 10.0.1.10 rule=ping
__END_OF_FILE__
mkdir -p "$(dirname /srv/fw/denied.log)"
