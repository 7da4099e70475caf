#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/dns/queries.log)"
cat > /var/log/dns/queries.log <<'__END_OF_FILE__'
12:00:00 10.0.3.23 cdn.A-records.net A NOERROR
12:01:17 10.0.3.14 alpha.local MX NOERROR
12:02:34 10.0.3.26 cdn.A-records.net MX SERVFAIL
12:03:51 10.0.3.10 a.example.com CNAME NXDOMAIN
12:04:08 10.0.3.15 mail.example.org A NOERROR
12:05:25 10.0.3.26 alpha.local MX NOERROR
12:06:42 10.0.3.28 mail.example.org CNAME NXDOMAIN
12:07:59 10.0.3.24 mail.example.org TXT NOERROR
12:08:16 10.0.3.20 cdn.A-records.net A SERVFAIL
12:09:33 10.0.3.29 a.example.com A NOERROR
12:10:50 10.0.3.11 cdn.A-records.net AAAA NXDOMAIN
12:11:07 10.0.3.10 www.example.com CNAME SERVFAIL
12:12:24 10.0.3.25 www.example.com AAAA NOERROR
12:13:41 10.0.3.13 a.example.com A NOERROR
12:14:58 10.0.3.10 mail.example.org A NOERROR
12:15:15 10.0.3.23 api.example.com TXT NXDOMAIN
12:16:32 10.0.3.18 cdn.A-records.net A NXDOMAIN
12:17:49 10.0.3.29 a.example.com TXT NOERROR
12:18:06 10.0.3.20 cdn.A-records.net A NOERROR
12:19:23 10.0.3.13 mail.example.org CNAME NOERROR
12:20:40 10.0.3.10 api.example.com TXT SERVFAIL
12:21:57 10.0.3.12 alpha.local TXT NXDOMAIN
12:22:14 10.0.3.19 mail.example.org MX NOERROR
12:23:31 10.0.3.27 www.example.com AAAA NXDOMAIN
12:24:48 10.0.3.19 alpha.local AAAA NOERROR
12:25:05 10.0.3.12 alpha.local A NXDOMAIN
12:26:22 10.0.3.26 a.example.com A NOERROR
12:27:39 10.0.3.12 api.example.com A NOERROR
12:28:56 10.0.3.28 cdn.A-records.net A NXDOMAIN
12:29:13 10.0.3.20 alpha.local A SERVFAIL
12:30:30 10.0.3.28 a.example.com AAAA SERVFAIL
12:31:47 10.0.3.26 mail.example.org AAAA SERVFAIL
12:32:04 10.0.3.16 mail.example.org MX SERVFAIL
12:33:21 10.0.3.27 cdn.A-records.net TXT SERVFAIL
__END_OF_FILE__
mkdir -p "$(dirname /var/log/dns/a_count.txt)"
