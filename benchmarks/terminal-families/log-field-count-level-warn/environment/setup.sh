#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/app/logs/service.log)"
cat > /srv/app/logs/service.log <<'__END_OF_FILE__'
2024-03-01 11:00:00 INFO api: cache miss for key user:42
2024-03-01 11:01:13 WARN api: cache miss for key user:42
2024-03-01 11:02:26 INFO api: queue length 12
2024-03-01 11:03:39 INFO api: config reloaded
2024-03-01 11:04:52 WARN api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:05:05 INFO api: retrying upstream
2024-03-01 11:06:18 INFO api: config reloaded
2024-03-01 11:07:31 ERROR api: cache miss for key user:42
2024-03-01 11:08:44 INFO api: queue length 12
2024-03-01 11:09:57 INFO api: disk usage at 81%, WARN threshold is 80%
2024-03-01 11:10:10 INFO api: retrying upstream
2024-03-01 11:11:23 INFO api: config reloaded
2024-03-01 11:12:36 INFO api: request served
2024-03-01 11:13:49 WARN api: config reloaded
2024-03-01 11:14:02 INFO api: retrying upstream
2024-03-01 11:15:15 WARN api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:16:28 INFO api: escalated from WARN to ERROR
2024-03-01 11:17:41 INFO api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:18:54 INFO api: config reloaded
2024-03-01 11:19:07 WARN api: cache miss for key user:42
2024-03-01 11:20:20 INFO api: retrying upstream
2024-03-01 11:21:33 WARN api: request served
2024-03-01 11:22:46 WARN api: disk usage at 81%, WARN threshold is 80%
2024-03-01 11:23:59 ERROR api: cache miss for key user:42
2024-03-01 11:24:12 ERROR api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:25:25 INFO api: request served
2024-03-01 11:26:38 DEBUG api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:27:51 INFO api: cache miss for key user:42
2024-03-01 11:28:04 INFO api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:29:17 WARN api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:30:30 INFO api: escalated from WARN to ERROR
2024-03-01 11:31:43 INFO api: alert rule WARN_ON_LATENCY fired
2024-03-01 11:32:56 INFO api: retrying upstream
2024-03-01 11:33:09 WARN api: config reloaded
2024-03-01 11:34:22 INFO api: config reloaded
2024-03-01 11:35:35 WARN api: config reloaded
__END_OF_FILE__
mkdir -p "$(dirname /srv/app/warn_count.txt)"
