#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/audit/actions.log)"
cat > /var/log/audit/actions.log <<'__END_OF_FILE__'
2024-04-01T10:00:00Z|bruno|delete|trash/delete
2024-04-02T11:00:01Z|deleter-bot|update|tmp/delete-me.txt
2024-04-03T12:00:02Z|anna|delete|users/42
2024-04-04T13:00:03Z|anna|read|users/42
2024-04-05T14:00:04Z|carla|read|users/42
2024-04-06T15:00:05Z|carla|delete|trash/delete
2024-04-07T16:00:06Z|bruno|read|config/app.ini
2024-04-08T17:00:07Z|carla|update|tmp/delete-me.txt
2024-04-09T18:00:08Z|anna|delete|tmp/delete-me.txt
2024-04-01T19:00:09Z|bruno|read|tmp/delete-me.txt
2024-04-02T10:00:10Z|bruno|update|trash/delete
2024-04-03T11:00:11Z|bruno|read|trash/delete
2024-04-04T12:00:12Z|deleter-bot|read|tmp/delete-me.txt
2024-04-05T13:00:13Z|anna|create|reports/q1.pdf
2024-04-06T14:00:14Z|deleter-bot|update|users/42
2024-04-07T15:00:15Z|bruno|read|reports/q1.pdf
2024-04-08T16:00:16Z|deleter-bot|delete|users/42
2024-04-09T17:00:17Z|carla|delete|reports/q1.pdf
2024-04-01T18:00:18Z|deleter-bot|read|users/42
2024-04-02T19:00:19Z|bruno|read|invoices/2024-03.csv
2024-04-03T10:00:20Z|anna|delete|invoices/2024-03.csv
2024-04-04T11:00:21Z|anna|update|invoices/2024-03.csv
2024-04-05T12:00:22Z|deleter-bot|read|tmp/delete-me.txt
2024-04-06T13:00:23Z|carla|read|tmp/delete-me.txt
2024-04-07T14:00:24Z|carla|read|reports/q1.pdf
2024-04-08T15:00:25Z|bruno|delete|trash/delete
2024-04-09T16:00:26Z|deleter-bot|read|reports/q1.pdf
2024-04-01T17:00:27Z|anna|read|reports/q1.pdf
2024-04-02T18:00:28Z|anna|create|invoices/2024-03.csv
2024-04-03T19:00:29Z|deleter-bot|create|invoices/2024-03.csv
2024-04-04T10:00:30Z|deleter-bot|read|users/42
2024-04-05T11:00:31Z|carla|delete|trash/delete
2024-04-06T12:00:32Z|carla|create|tmp/delete-me.txt
__END_OF_FILE__
mkdir -p "$(dirname /var/log/audit/delete_count.txt)"
