#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/auth.log)"
cat > /var/log/auth.log <<'__END_OF_FILE__'
Jun  3 09:12:01 web1 sshd[811]: Accepted publickey for deploy from 10.1.4.20 port 51022 ssh2
Jun  3 09:13:44 web1 sshd[815]: Failed password for invalid user admin from 203.0.113.7 port 40112 ssh2
Jun  3 09:13:47 web1 sshd[815]: Failed password for invalid user admin from 203.0.113.7 port 40112 ssh2
Jun  3 09:14:02 web1 sudo: pam_unix(sudo:auth): authentication failure; logname=anna uid=1001
Jun  3 09:14:05 web1 sudo: anna : 1 incorrect password attempt ; TTY=pts/0 ; COMMAND=/usr/bin/apt
Jun  3 09:15:30 web1 sshd[830]: error: maximum authentication attempts exceeded for root from 198.51.100.3 port 33211 ssh2 [preauth]
Jun  3 09:15:31 web1 sshd[830]: Failed password for root from 198.51.100.3 port 33211 ssh2
Jun  3 09:16:00 web1 systemd[1]: backup.service: Unit entered failed state.
Jun  3 09:16:01 web1 systemd[1]: backup.service: FAILED to start, see the journal
Jun  3 09:17:12 web1 sshd[844]: Failed publickey for deploy from 10.1.4.21 port 51100 ssh2
Jun  3 09:18:40 web1 CRON[850]: pam_unix(cron:session): session opened for user root
__END_OF_FILE__
mkdir -p "$(dirname /root/failed_logins.txt)"
