#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/worker/jobs.log)"
cat > /var/log/worker/jobs.log <<'__END_OF_FILE__'
[2024-05-12T08:00:00Z] INFO job=import-users started
[2024-05-12T08:00:03Z] WARN job=import-users row 17 has no email, skipped
[2024-05-12T08:00:04Z] INFO job=import-users warnings so far: 1
[2024-05-12T08:01:10Z] INFO job=resize-images Warning thresholds loaded
[2024-05-12T08:01:12Z] WARN job=resize-images image 2291 larger than 20 MB
[2024-05-12T08:02:00Z] ERROR job=send-mail smtp timeout, will warn admin
[2024-05-12T08:02:30Z] INFO job=send-mail retry 1 ok
[2024-05-12T08:03:45Z] WARN job=cleanup 3 temp files still locked
[2024-05-12T08:04:00Z] DEBUG job=cleanup warn_after=300s
[2024-05-12T08:05:10Z] INFO job=cleanup done
__END_OF_FILE__
mkdir -p "$(dirname /root/warn_lines.txt)"
