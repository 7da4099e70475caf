#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/monitoring/alerts.csv)"
cat > /data/monitoring/alerts.csv <<'__END_OF_FILE__'
time,host,severity,message
2024-02-10 01:00,db1,WARNING,replication lag 12s
2024-02-10 01:05,db1,CRITICAL,replication stopped
2024-02-10 01:07,web3,INFO,critical path cache warmed
2024-02-10 01:10,web1,WARNING,Critical section held for 2s
2024-02-10 01:12,db2,CRITICAL,disk 97% full
2024-02-10 01:20,lb1,INFO,failover test ok
2024-02-10 01:25,web2,CRITICAL,5xx rate above 20%
2024-02-10 01:30,db1,INFO,recovered from critical state
__END_OF_FILE__
mkdir -p "$(dirname /data/monitoring/critical.csv)"
