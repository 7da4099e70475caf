#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/logs/app.log)"
cat > /app/logs/app.log <<'__END_OF_FILE__'
2024-03-01 10:00:01 INFO  service started on port 8080
2024-03-01 10:00:05 ERROR database connection refused (db.internal:5432)
2024-03-01 10:00:06 WARN  retrying in 5s
2024-03-01 10:00:11 INFO  config reload finished without error
2024-03-01 10:00:12 ERROR payment gateway timeout (order 118)
2024-03-01 10:00:40 INFO  Error budget for this week: 99.2%
2024-03-01 10:01:00 INFO  health check ok
2024-03-01 10:01:17 DEBUG error_count=0 retries=1
2024-03-01 10:02:30 ERROR disk quota exceeded on /var/data
2024-03-01 10:03:02 INFO  request 4411 done, status=ok
2024-03-01 10:03:09 WARN  slow query (1200 ms), logged as error candidate
2024-03-01 10:04:44 ERROR worker 3 crashed: Error: out of memory
__END_OF_FILE__
mkdir -p "$(dirname /app/errors.txt)"
