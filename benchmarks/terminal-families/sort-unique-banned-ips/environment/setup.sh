#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/fail2ban/banned_raw.txt)"
cat > /etc/fail2ban/banned_raw.txt <<'__END_OF_FILE__'
185.220.101.4
103.21.244.10
141.98.11.27
194.26.29.113
185.220.101.8
103.21.244.10
193.32.162.55
185.220.101.4
193.32.162.55
141.98.11.27
185.220.101.4
194.26.29.113
193.32.162.55
103.21.244.10
193.32.162.55
185.220.101.8
185.220.101.4
__END_OF_FILE__
mkdir -p "$(dirname /root/banned.txt)"
