#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/ansible/hosts.ini)"
cat > /etc/ansible/hosts.ini <<'__END_OF_FILE__'
[databases]
db-old-01 ansible_host=10.0.2.11
db-replica-02 ansible_host=10.0.2.12

[backup]
backup01 ansible_host=10.0.2.50 backup_source=db-old-01 restore_target=db-old-01

[monitoring:vars]
targets=web01,web02,db-old-01,cache01
alert_host=db-old-01 fallback=db-old-01
__END_OF_FILE__
