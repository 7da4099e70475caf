"""More families of plain-text work: exact-case filtering, blank lines, config values, replacing,
distinct lines, counting by field and line ranges."""

from generate import Family, Instance

_EOF = "__END_OF_FILE__"


def _put(path: str, text: str) -> str:
    """Bash lines that create `path` (and its directory) holding exactly `text`."""
    out = [f'mkdir -p "$(dirname {path})"']
    awkward = (not text.endswith("\n") or _EOF in text
               or any(line.strip() == "" and line != "" for line in text.split("\n")))
    if awkward:  # whitespace-only lines would not survive the dedent of the setup script
        out += ["python3 - <<'PY'", f"with open({path!r}, 'w') as f:", f"    f.write({text!r})", "PY"]
    else:
        out += [f"cat > {path} <<'{_EOF}'", text[:-1], _EOF]
    return "\n".join(out) + "\n"


def _dir(path: str) -> str:
    return f'mkdir -p "$(dirname {path})"\n'


def _rng(seed: int):
    """A tiny deterministic generator (the same on every Python): r(n) is in range(n)."""
    state = [seed]

    def r(n: int) -> int:
        state[0] = (state[0] * 1103515245 + 12345) % 2**31
        return (state[0] >> 8) % n

    return r


def _lines(text: str) -> list[str]:
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


# ---------------------------------------------------------------------------------------------
# grep-exact-case

_APP_LOG = """\
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
"""

_JOBS_LOG = """\
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
"""

_CART_PY = '''\
"""Shopping cart. The todo list for the next release is in docs/roadmap.md."""

import decimal


class Cart:
    def __init__(self):
        self.items = []  # TODO: use a dict keyed by sku

    def add(self, sku, qty=1):
        # todo later: validate the sku format
        self.items.append((sku, qty))

    def total(self, prices):
        # TODO handle missing prices
        return sum(decimal.Decimal(prices[s]) * q for s, q in self.items)

    def clear(self):
        # Todo: keep an undo history?
        self.items.clear()

    def discount(self, code):
        # TODO(anna): codes come from the promo service
        raise NotImplementedError("Todo")
'''

_AUTH_LOG = """\
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
"""

_FIREWALL_LOG = """\
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
"""

_BUILD_LOG = """\
[1/6] Configuring project (Release)
-- Found OpenSSL 3.0.11
-- fatal warnings disabled (-Wno-error)
[2/6] Compiling src/main.c
[3/6] Compiling src/net.c
src/net.c:88: FATAL: undefined reference to 'tls_init'
[4/6] Compiling src/signals.c
src/signals.c:12: note: Fatal signals are handled in crash.c
[5/6] Linking app
ld: FATAL error: 1 unresolved symbol
[6/6] Build Fatal: stopping after errors
Build finished with status: fatal
"""

_ALERTS_CSV = """\
time,host,severity,message
2024-02-10 01:00,db1,WARNING,replication lag 12s
2024-02-10 01:05,db1,CRITICAL,replication stopped
2024-02-10 01:07,web3,INFO,critical path cache warmed
2024-02-10 01:10,web1,WARNING,Critical section held for 2s
2024-02-10 01:12,db2,CRITICAL,disk 97% full
2024-02-10 01:20,lb1,INFO,failover test ok
2024-02-10 01:25,web2,CRITICAL,5xx rate above 20%
2024-02-10 01:30,db1,INFO,recovered from critical state
"""

_KERN_LOG = """\
[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)
[    0.412233] ACPI: bus type PCI registered
[    2.118001] usb 1-1: new high-speed USB device number 2, debug port enabled
[   14.520331] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   14.520340] #PF: supervisor read access in kernel mode
[   14.520388] Bug report filed as ticket 5521 by watchdog
[   30.004100] e1000e 0000:00:19.0 eth0: link up, 1000 Mbps, debugging off
[   61.870002] BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:2:311]
[   62.000000] systemd[1]: Started Debug Shell on tty9 (disabled).
[   90.100000] audit: type=1400 bug_on_warn=0
"""

# (key, file, content, word, output, wording)
_GREP = [
    ("app-error", "/app/logs/app.log", _APP_LOG, "ERROR", "/app/errors.txt",
     "Copy into `{out}` each line of `{file}` that contains `{word}`, in capital letters as written here. "
     "The lines must stay unchanged and in their original order."),
    ("worker-warn", "/var/log/worker/jobs.log", _JOBS_LOG, "WARN", "/root/warn_lines.txt",
     "Save the lines of `{file}` that contain the string `{word}` into `{out}`, unchanged and in the same "
     "order. The match is case-sensitive: `warn` or `Warning` do not count."),
    ("cart-todo", "/home/dev/shop/cart.py", _CART_PY, "TODO", "/home/dev/todo.txt",
     "Collect every line of the source file `{file}` that contains `{word}`, written exactly like that in "
     "upper case, and write those lines, as they are and in file order, to `{out}`."),
    ("auth-failed", "/var/log/auth.log", _AUTH_LOG, "Failed", "/root/failed_logins.txt",
     "`{file}` is an auth log. Extract the lines that contain `{word}` with exactly this capitalization "
     "into `{out}` (the same lines, in the same order)."),
    ("firewall-deny", "/srv/fw/firewall.log", _FIREWALL_LOG, "DENY", "/srv/fw/denied.log",
     "Put into `{out}` only the lines of `{file}` that contain `{word}` in upper case; lines where the "
     "word is written `deny` or `Deny` must be left out. Keep the lines' order and content."),
    ("build-fatal", "/app/build/build.log", _BUILD_LOG, "FATAL", "/app/build/fatal.txt",
     "Which lines of `{file}` mention `{word}` (all caps, exactly)? Write them to `{out}`, one per line, "
     "in the order they appear in the log."),
    ("alerts-critical", "/data/monitoring/alerts.csv", _ALERTS_CSV, "CRITICAL",
     "/data/monitoring/critical.csv",
     "From `{file}`, copy to `{out}` the lines that contain `{word}` (case matters: `critical` and "
     "`Critical` are not the same), unchanged and in their original order."),
    ("kernel-bug", "/var/log/kern.log", _KERN_LOG, "BUG", "/root/kernel_bugs.txt",
     "I want the lines of `{file}` that contain `{word}` in capitals, and only those: a line that merely "
     "has `bug`, `Bug` or `debug` in it is not wanted. Write them, in order, to `{out}`."),
]


def _grep_exact_case() -> Family:
    instances = []
    for key, file, content, word, out, wording in _GREP:
        want = [line for line in _lines(content) if word in line]
        loose = [line for line in _lines(content) if word.lower() in line.lower()]
        assert want and loose != want, key
        checks = f"""
got = lines({out!r})
check(got is not None, "{out} exists")
want = {want!r}
got = [line.rstrip() for line in got] if got is not None else None
check(got == want, f"it holds exactly the {len(want)} lines containing {word!r} in that case, in order (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, word=word, out=out),
                                  setup=_put(file, content) + _dir(out),
                                  solve=f"grep -F '{word}' {file} > {out}\n", checks=checks,
                                  tags=("grep",)))
    return Family(name="grep-exact-case", category="text-processing",
                  recipe="grep -F 'WORD' FILE > OUT",
                  slip="`grep -i` also takes the lines with the word in another case; printing instead of "
                       "writing the file",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# strip-blank-lines

# (key, file, content, output, wording)
_BLANK = [
    ("shopping-notes", "/app/notes.txt",
     "shopping list\n\n  milk\n   \n\tbread\n\t\n\n  \t  \neggs\ncoffee beans\n \nbutter\n",
     "/app/notes_clean.txt",
     "Write a copy of `{file}` without its blank lines to `{out}`. A line counts as blank when it is "
     "empty or contains nothing but spaces and tabs; every other line must stay exactly as it is, in "
     "the same order."),
    ("cluster-hosts", "/etc/hosts.d/cluster.hosts",
     "# cluster nodes\n10.0.0.11   node1\n   \n10.0.0.12   node2\n\t\n10.0.0.13   node3\n\n"
     "# storage\n\t\t\n10.0.1.5    nas1\n  \n10.0.1.6    nas2\n",
     "/etc/hosts.d/cluster.compact",
     "Create `{out}`: the content of `{file}` with every blank line removed (lines that are empty or "
     "hold only whitespace, i.e. spaces or tabs, are blank). The remaining lines keep their exact text "
     "and order."),
    ("requirements", "/home/dev/app/requirements.txt",
     "# web\nflask==3.0.2\n    \ngunicorn==21.2.0\n\n# data\n  \t\npandas==2.2.1\nnumpy==1.26.4\n \n\n"
     "# tests\npytest==8.1.1\n\t\n",
     "/home/dev/app/requirements.min.txt",
     "`{file}` has empty lines and lines made only of spaces or tabs scattered through it. Write the "
     "file without any of those lines to `{out}`, leaving all other lines untouched and in order."),
    ("migrate-sql", "/srv/db/migrate.sql",
     "BEGIN;\n\nCREATE TABLE invoices (\n    id INTEGER PRIMARY KEY,\n    \n    total_cents INTEGER NOT NULL,\n"
     "\t\n    issued_at TEXT\n);\n  \n\nCREATE INDEX invoices_issued ON invoices (issued_at);\n \t \n"
     "COMMIT;\n",
     "/srv/db/migrate_compact.sql",
     "Produce `{out}` from `{file}` by dropping every line that is blank, whether it is completely empty "
     "or consists only of spaces and/or tabs. Lines with any other character must be copied exactly, "
     "indentation included, in their original order."),
    ("draft-md", "/home/writer/draft.md",
     "# Chapter 3\n\n   \nThe train left at noon.\n\t\nNobody on the platform waved.\n\n\n"
     "  > a quoted letter\n    \n## Notes\n \n- check the timetable\n",
     "/home/writer/draft_tight.md",
     "Please save a version of `{file}` with no blank lines as `{out}`. Treat a line as blank if, "
     "ignoring spaces and tabs, nothing is left on it. Everything else stays character for character "
     "the same and in the same order."),
    ("schedule", "/opt/jobs/schedule.txt",
     "# m h dom mon dow command\n0 2 * * * /opt/jobs/backup.sh\n\t \n30 2 * * * /opt/jobs/rotate.sh\n\n"
     "   \n*/15 * * * * /opt/jobs/poll.sh\n\t\n0 6 * * 1 /opt/jobs/report.sh\n",
     "/tmp/schedule_noblank.txt",
     "Write `{file}` to `{out}` minus its blank lines; a blank line here means one that is empty or "
     "only has whitespace (spaces, tabs) on it. Keep the other lines as they are, in order."),
    ("readings-csv", "/data/raw/readings.csv",
     "sensor,time,celsius\ns1,08:00,21.4\n\ns1,08:05,21.6\n  \ns2,08:00,19.9\n\t\ns2,08:05,20.1\n"
     "    \t\n\ns3,08:00,23.0\n",
     "/data/readings.csv",
     "The CSV export `{file}` contains blank lines between records, some of them empty and some holding "
     "only spaces or tabs. Write the same data without any blank line to `{out}` (header and records "
     "unchanged, same order)."),
    ("report-py", "/app/tools/report.py",
     "import sys\n\n\ndef main(args):\n    total = 0\n    \n    for name in args:\n        \n"
     "        total += len(name)\n\t\n    print(total)\n\n\nif __name__ == \"__main__\":\n"
     "    main(sys.argv[1:])\n",
     "/app/tools/report_compact.py",
     "Make a copy of `{file}` named `{out}` that leaves out all blank lines. Blank means the line is "
     "empty or contains only spaces or tabs (the editor left indentation on some of them). All other "
     "lines, with their indentation, stay exactly the same and in order."),
]


def _strip_blank_lines() -> Family:
    instances = []
    for key, file, content, out, wording in _BLANK:
        want = [line for line in _lines(content) if line.strip()]
        assert any(line.strip() == "" and line for line in _lines(content)), key
        checks = f"""
got = lines({out!r})
check(got is not None, "{out} exists")
want = {want!r}
got = [line.rstrip() for line in got] if got is not None else None
check(got == want, f"it holds the {len(want)} non-blank lines, unchanged and in order (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out),
                                  setup=_put(file, content) + _dir(out),
                                  solve=f"grep -v '^[[:space:]]*$' {file} > {out}\n", checks=checks,
                                  tags=("grep", "sed")))
    return Family(name="strip-blank-lines", category="text-processing",
                  recipe="grep -v '^[[:space:]]*$' FILE > OUT",
                  slip="`sed '/^$/d'` (or `grep .`) keeps the lines that hold only spaces or tabs",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# config-set-value

_APP_INI = """\
; myapp configuration
[server]
host = 0.0.0.0
# port = 80
port = 8080
admin_port = 8081
workers = 4

[logging]
level = info
file = /var/log/myapp/app.log
"""

_DOT_ENV = """\
# Application environment
APP_ENV=production
# DB_HOST=127.0.0.1
DB_HOST=localhost
DB_HOST_REPLICA=localhost
DB_PORT=5432
DB_NAME=shop
SECRET_KEY=change-me-7f3a
"""

_PROPERTIES = """\
# Spring Boot settings
spring.application.name=shop
#server.port=80
server.port=8080
management.server.port=8081
spring.datasource.url=jdbc:postgresql://db:5432/shop
spring.datasource.username=shop
logging.level.root=INFO
"""

_API_ENV = """\
PORT=3000
LOG_LEVEL=info
SQL_LOG_LEVEL=info
# LOG_LEVEL=warn
CACHE_TTL=600
"""

_SYNCER_INI = """\
[account]
user = dev
remote = https://sync.example.com

[sync]
# interval = 600
interval = 300
retry_interval = 30
max_interval = 3600
paths = ~/Documents ~/Projects
"""

_PG_CONF = """\
# tuned for 8 GB RAM
listen_addresses = '*'
#max_connections = 50
max_connections = 100
superuser_max_connections = 3
shared_buffers = 2GB
work_mem = 16MB
"""

_PHP_INI = """\
; local overrides
;memory_limit = 64M
memory_limit = 128M
worker.memory_limit = 128M
upload_max_filesize = 20M
post_max_size = 25M
max_execution_time = 60
"""

_WORKER_CONF = """\
# worker settings
queue=default
concurrency=8
timeout=30
# timeout=10
read_timeout=30
connect_timeout=5
"""

# (key, file, content, config key, new value, wording)
_CONFIG = [
    ("ini-port", "/etc/myapp/app.ini", _APP_INI, "port", "9090",
     "In `{file}`, change the value of `{key}` to `{value}`. Edit the file in place and leave every "
     "other line as it is."),
    ("env-db-host", "/app/.env", _DOT_ENV, "DB_HOST", "db.internal",
     "The application now reaches its database at `{value}`. Update `{key}` in `{file}` to that value, "
     "in place, without touching any other line of the file."),
    ("spring-port", "/opt/shop/conf/application.properties", _PROPERTIES, "server.port", "8443",
     "Set the property `{key}` to `{value}` in `{file}`. Only that setting may change; the rest of the "
     "file must stay exactly as it is."),
    ("api-log-level", "/srv/api/config.env", _API_ENV, "LOG_LEVEL", "debug",
     "Switch `{key}` in `{file}` from its current value to `{value}` by editing the file in place. "
     "Nothing else in the file should change."),
    ("sync-interval", "/home/dev/.config/syncer/syncer.ini", _SYNCER_INI, "interval", "60",
     "`{file}` is the config of a sync tool. Make the `{key}` setting `{value}` instead of its current "
     "value, keeping the file otherwise unchanged (edit it in place)."),
    ("pg-connections", "/etc/pgtune/custom.conf", _PG_CONF, "max_connections", "250",
     "Raise `{key}` to `{value}` in `{file}`. Modify that one setting where it is; all other lines, "
     "comments included, must remain untouched."),
    ("php-memory", "/etc/php/conf.d/99-app.ini", _PHP_INI, "memory_limit", "512M",
     "Edit `{file}` so that `{key}` is `{value}`. Change only the existing `{key}` setting; leave all "
     "other lines exactly as they are."),
    ("worker-timeout", "/app/config/worker.conf", _WORKER_CONF, "timeout", "45",
     "Update the worker configuration `{file}` in place: the `{key}` value must become `{value}`. The "
     "other lines of the file must not change."),
]


def _is_setting(line: str, key: str) -> bool:
    stripped = line.strip()
    return (not stripped.startswith(("#", ";")) and "=" in stripped
            and stripped.split("=", 1)[0].strip() == key)


def _config_set_value() -> Family:
    instances = []
    for key, file, content, cfg, value, wording in _CONFIG:
        orig = _lines(content)
        hits = [i for i, line in enumerate(orig) if _is_setting(line, cfg)]
        assert len(hits) == 1, key
        index = hits[0]
        old_line = orig[index]
        new_line = old_line.split("=", 1)[0] + ("= " if "= " in old_line else "=") + value
        rest = orig[:index] + orig[index + 1:]
        checks = f"""
key, value, index = {cfg!r}, {value!r}, {index}
rest = {rest!r}
got = lines({file!r})
check(got is not None, "{file} exists")
got = [line.rstrip() for line in got] if got is not None else []


def is_setting(line):
    s = line.strip()
    return not s.startswith(("#", ";")) and "=" in s and s.split("=", 1)[0].strip() == key


hits = [i for i, line in enumerate(got) if is_setting(line)]
check(len(hits) == 1, f"{{key}} is set on exactly one line (found {{len(hits)}})")
if len(hits) == 1:
    have = got[hits[0]].split("=", 1)[1].strip()
    check(have == value, f"{{key}} is {{value!r}} (got {{have!r}})")
    check(hits[0] == index, f"the setting stays on its line {{index + 1}} (found on line {{hits[0] + 1}})")
    others = got[:hits[0]] + got[hits[0] + 1:]
    check(others == rest, f"every other line is unchanged (got {{others!r}})")
"""
        pattern = cfg.replace(".", "\\.")
        solve = f"sed -i 's/^{pattern} *=.*/{new_line}/' {file}\n"
        instances.append(Instance(key=key, instruction=wording.format(file=file, key=cfg, value=value),
                                  setup=_put(file, content), solve=solve, checks=checks,
                                  tags=("sed", "config")))
    return Family(name="config-set-value", category="configs",
                  recipe="sed -i 's/^KEY *=.*/KEY = VALUE/' FILE (anchored to the start of the line)",
                  slip="an unanchored substitution also rewrites the commented-out line or the similarly named "
                       "key; appending a second `KEY=VALUE` line instead of changing the existing one",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# replace-all-occurrences

_NGINX = """\
server {
    listen 80;
    server_name staging.example.com www.staging.example.com;
    return 301 https://staging.example.com$request_uri;
}

server {
    listen 443 ssl;
    server_name staging.example.com www.staging.example.com;
    ssl_certificate     /etc/ssl/staging.example.com/fullchain.pem;
    ssl_certificate_key /etc/ssl/staging.example.com/privkey.pem;
    root /var/www/shop;
}
"""

_INVENTORY = """\
[databases]
db-old-01 ansible_host=10.0.2.11
db-replica-02 ansible_host=10.0.2.12

[backup]
backup01 ansible_host=10.0.2.50 backup_source=db-old-01 restore_target=db-old-01

[monitoring:vars]
targets=web01,web02,db-old-01,cache01
alert_host=db-old-01 fallback=db-old-01
"""

_COMPOSE = """\
services:
  web:
    image: registry.local/shop/web:1.4
    environment:
      - CDN_ORIGIN=registry.local
      - MIRRORS=registry.local,registry.local:5001
  worker:
    image: registry.local/shop/worker:1.4
    command: ["pull", "--from", "registry.local", "--to", "registry.local:5001"]
"""

_CONTACTS = """\
name,company,email,notes
Ann Lee,Acme,ann.lee@example.org,met at the Acme booth; Acme renewal due in May
Bo Chen,Initech,bo.chen@example.org,prefers phone
Cy Diaz,Acme,cy.diaz@example.net,Acme and Acme Labs share one account
Di Park,Umbrella,di.park@example.com,former Acme employee
"""

_README = """\
# Quarry

Quarry is a small task runner. Install Quarry with pip and run it from your project.

## Usage

Write a tasks file, then run Quarry: Quarry reads the file and runs each task in order.
When Quarry fails, the exit status tells which task broke.
"""

_SEED_SQL = """\
CREATE SCHEMA IF NOT EXISTS legacy_shop;
SET search_path TO legacy_shop;
INSERT INTO legacy_shop.customers (id, name) SELECT id, name FROM legacy_shop.users;
INSERT INTO legacy_shop.orders SELECT * FROM legacy_shop.orders_2023 UNION ALL SELECT * FROM legacy_shop.orders_2024;
GRANT USAGE ON SCHEMA legacy_shop TO reporting;
"""

_SERVICES_JSON = """\
{
  "api": {"host": "10.0.0.5", "port": 8000},
  "cache": {"nodes": ["10.0.0.5:6379", "10.0.0.6:6379", "10.0.0.5:6380"]},
  "dns": "10.0.0.1",
  "health": "http://10.0.0.5:8000/health http://10.0.0.5:8001/health"
}
"""

_UNIT = """\
[Unit]
Description=Nightly reports for olduser

[Service]
User=olduser
Group=olduser
Environment=HOME=/home/olduser REPORT_OWNER=olduser
ExecStart=/usr/local/bin/make-reports --owner olduser --notify olduser
WorkingDirectory=/home/olduser

[Install]
WantedBy=multi-user.target
"""

# (key, file, content, old, new, wording)
_REPLACE = [
    ("nginx-host", "/etc/nginx/sites-available/shop.conf", _NGINX, "staging.example.com", "shop.example.com",
     "In `{file}`, replace every occurrence of `{old}` with `{new}`, editing the file in place."),
    ("ansible-db", "/etc/ansible/hosts.ini", _INVENTORY, "db-old-01", "db-new-01",
     "The database host `{old}` was renamed to `{new}`. Update the inventory `{file}` in place so that "
     "the old name appears nowhere in it: every `{old}` becomes `{new}`."),
    ("compose-registry", "/srv/stack/docker-compose.yml", _COMPOSE, "registry.local", "registry.corp.net",
     "Rewrite `{file}` in place, changing each and every `{old}` into `{new}`; all other text stays the "
     "same."),
    ("contacts-company", "/data/crm/contacts.csv", _CONTACTS, "Acme", "Globex",
     "The company `{old}` is now called `{new}`. Edit `{file}` in place, replacing all occurrences of "
     "`{old}` with `{new}`, wherever they appear in a line."),
    ("readme-name", "/home/dev/docs/README.md", _README, "Quarry", "Pebble",
     "Our tool was renamed from `{old}` to `{new}`. Replace all the occurrences of `{old}` in `{file}` "
     "with `{new}`; change the file itself."),
    ("seed-schema", "/srv/db/seed.sql", _SEED_SQL, "legacy_shop", "shop_v2",
     "Modify the SQL script `{file}` in place so that every `{old}` in it reads `{new}` instead."),
    ("services-ip", "/app/config/services.json", _SERVICES_JSON, "10.0.0.5", "10.20.0.7",
     "The server at `{old}` moved to `{new}`. In `{file}`, substitute `{new}` for every `{old}` (edit "
     "the file in place; nothing else changes)."),
    ("unit-user", "/etc/systemd/system/reports.service", _UNIT, "olduser", "svc-reports",
     "Replace each occurrence of `{old}` with `{new}` throughout `{file}`, writing the result back to "
     "the same file."),
]


def _replace_all() -> Family:
    instances = []
    for key, file, content, old, new, wording in _REPLACE:
        want = _lines(content.replace(old, new))
        assert any(line.count(old) >= 2 for line in _lines(content)), key
        checks = f"""
got = lines({file!r})
check(got is not None, "{file} exists")
want = {want!r}
got = [line.rstrip() for line in got] if got is not None else None
check(got is not None and not any({old!r} in line for line in got), "no {old} is left")
check(got == want, f"every {old} became {new} and nothing else changed (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, old=old, new=new),
                                  setup=_put(file, content), solve=f"sed -i 's/{old}/{new}/g' {file}\n",
                                  checks=checks, tags=("sed",)))
    return Family(name="replace-all-occurrences", category="text-processing",
                  recipe="sed -i 's/OLD/NEW/g' FILE",
                  slip="sed without the `g` flag replaces only the first occurrence on each line; printing "
                       "instead of editing in place",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# sort-unique

def _shuffled_with_repeats(items: list[str], total: int, seed: int) -> list[str]:
    """`total` picks of `items` (each at least once), in a mixed order with no two equal neighbours."""
    while True:
        r = _rng(seed)
        picks = list(items) + [items[r(len(items))] for _ in range(total - len(items))]
        out: list[str] = []
        while picks:
            choices = [i for i, p in enumerate(picks) if not out or p != out[-1]] or list(range(len(picks)))
            out.append(picks.pop(choices[r(len(choices))]))
        if all(a != b for a, b in zip(out, out[1:])):
            return out
        seed += 1


# (key, file, distinct items, total lines, output, wording)
_UNIQUE = [
    ("banned-ips", "/etc/fail2ban/banned_raw.txt",
     ["103.21.244.10", "141.98.11.27", "185.220.101.4", "185.220.101.8", "193.32.162.55", "194.26.29.113"],
     17, "/root/banned.txt",
     "`{file}` lists one banned IP address per line, many of them more than once. Write each distinct "
     "address exactly once, one per line, sorted in ascending order, to `{out}`."),
    ("login-users", "/var/log/logins.txt",
     ["anna", "bruno", "carla", "deploy", "erik", "fatima", "gustav", "root"],
     21, "/app/users.txt",
     "Every line of `{file}` is the name of a user who logged in. Save the list of distinct users to "
     "`{out}`: one name per line, no repeats, in alphabetical order."),
    ("seen-hosts", "/srv/inventory/hosts_seen.txt",
     ["cache1", "db1", "db2", "mail1", "proxy1", "web1", "web2"],
     19, "/srv/inventory/hosts_unique.txt",
     "Produce `{out}` containing the unique lines of `{file}` (each host name once), sorted "
     "alphabetically."),
    ("requested-packages", "/app/deps/requested.txt",
     ["click", "flask", "jinja", "numpy", "pandas", "pytest", "requests", "urllib"],
     20, "/app/deps/packages.txt",
     "Several teams appended the packages they need to `{file}`, so names repeat. Write the sorted list "
     "of distinct package names (ascending, one per line, each once) to `{out}`."),
    ("visit-countries", "/data/geo/visit_countries.txt",
     ["BR", "DE", "ES", "FR", "IN", "JP", "NL", "US"],
     24, "/data/geo/countries.txt",
     "Which countries appear in `{file}`? Write each country code that occurs in it once, one per line "
     "and in sorted (ascending) order, into `{out}`."),
    ("dhcp-macs", "/srv/dhcp/seen_macs.txt",
     ["3c:22:fb:1a:00:01", "3c:22:fb:1a:00:07", "8c:85:90:4e:21:aa", "a4:83:e7:02:9c:10",
      "dc:a6:32:11:5b:3f"],
     15, "/srv/dhcp/macs.txt",
     "`{file}` contains MAC addresses, one per line, with duplicates. Write the distinct addresses to "
     "`{out}`, sorted in ascending order, each exactly once."),
    ("error-codes", "/var/log/app/codes.txt",
     ["E1001", "E1004", "E2010", "E2011", "E3100", "E4040", "E5000"],
     18, "/tmp/codes.txt",
     "Give me the set of error codes found in `{file}` (one code per line there): put every different "
     "code once into `{out}`, one per line, sorted ascending."),
    ("blog-tags", "/home/blog/tags.txt",
     ["bash", "docker", "git", "linux", "networking", "python", "security", "sqlite"],
     22, "/home/blog/tags_sorted.txt",
     "Deduplicate the tag list `{file}`: `{out}` must hold each tag that appears in it exactly once, "
     "one per line, in alphabetical order."),
]


def _sort_unique() -> Family:
    instances = []
    for n, (key, file, items, total, out, wording) in enumerate(_UNIQUE):
        data = _shuffled_with_repeats(items, total, seed=1000 + n)
        want = sorted(set(data))
        assert want == sorted(items) and len(data) > len(want), key
        assert all(a != b for a, b in zip(data, data[1:])), key
        checks = f"""
got = lines({out!r})
check(got is not None, "{out} exists")
want = {want!r}
got = [line.strip() for line in got] if got is not None else None
check(got == want, f"it holds the {len(want)} distinct values once each, sorted (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out),
                                  setup=_put(file, "\n".join(data) + "\n") + _dir(out),
                                  solve=f"sort -u {file} > {out}\n", checks=checks, tags=("sort",)))
    return Family(name="sort-unique", category="text-processing", recipe="sort -u FILE > OUT",
                  slip="`uniq` without `sort` keeps the duplicates that are not adjacent; `sort` without `-u` "
                       "keeps every duplicate",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# log-field-count


def _access_log() -> str:
    r = _rng(7)
    paths = ["/", "/products/404", "/img/404.png", "/cart", "/api/items", "/login", "/docs/errors#404",
             "/checkout", "/search?q=404"]
    ips = ["10.0.0.12", "192.168.1.40", "172.16.5.23", "10.0.4.40"]
    out = []
    for i in range(40):
        status = [200, 200, 200, 404, 301, 500, 404, 200][r(8)]
        size = [404, 4040, 512, 1404, 0, 2048, 404][r(7)]
        out.append(f'{ips[r(4)]} - - [01/Mar/2024:10:{i:02d}:{(i * 7) % 60:02d} +0000] '
                   f'"GET {paths[r(len(paths))]} HTTP/1.1" {status} {size}')
    return "\n".join(out) + "\n"


def _service_log() -> str:
    r = _rng(11)
    msgs = ["request served", "cache miss for key user:42", "disk usage at 81%, WARN threshold is 80%",
            "escalated from WARN to ERROR", "queue length 12", "config reloaded", "retrying upstream",
            "alert rule WARN_ON_LATENCY fired"]
    out = []
    for i in range(36):
        level = ["INFO", "INFO", "WARN", "ERROR", "DEBUG", "INFO", "WARN"][r(7)]
        out.append(f"2024-03-01 11:{i:02d}:{(i * 13) % 60:02d} {level} api: {msgs[r(len(msgs))]}")
    return "\n".join(out) + "\n"


def _orders_csv() -> str:
    r = _rng(13)
    notes = ["", "customer refunded via card", "gift wrap", "partially refunded earlier", "express",
             "refunded shipping only"]
    out = ["order_id,customer,amount,status,note"]
    for i in range(30):
        status = ["paid", "refunded", "shipped", "paid", "cancelled", "refunded", "shipped"][r(7)]
        out.append(f"{5001 + i},cust{100 + r(50)},{10 + r(190)}.{r(100):02d},{status},{notes[r(len(notes))]}")
    return "\n".join(out) + "\n"


def _jobs_tsv() -> str:
    r = _rng(17)
    names = ["build", "test-unit", "test-e2e", "lint", "deploy-staging", "docs"]
    out = ["job_id\tname\tduration_s\texit_code"]
    for i in range(32):
        code = [0, 0, 1, 0, 2, 127, 1, 137, 0, 1][r(10)]
        out.append(f"{1100 + i}\t{names[r(len(names))]}\t{1 + r(300)}\t{code}")
    return "\n".join(out) + "\n"


def _dns_log() -> str:
    r = _rng(19)
    names = ["a.example.com", "api.example.com", "cdn.A-records.net", "mail.example.org", "alpha.local",
             "www.example.com"]
    out = []
    for i in range(34):
        qtype = ["A", "AAAA", "A", "MX", "TXT", "AAAA", "CNAME", "A"][r(8)]
        rcode = ["NOERROR", "NOERROR", "NXDOMAIN", "SERVFAIL"][r(4)]
        out.append(f"12:{i:02d}:{(i * 17) % 60:02d} 10.0.3.{10 + r(20)} {names[r(len(names))]} {qtype} {rcode}")
    return "\n".join(out) + "\n"


def _drops_log() -> str:
    r = _rng(23)
    out = []
    for i in range(38):
        port = [22, 80, 443, 22, 2222, 3389, 22, 8022, 5432][r(9)]
        src = f"{[45, 122, 185, 222][r(4)]}.{r(250)}.{[22, 122, 7, 220][r(4)]}.{1 + r(250)}"
        out.append(f"2024-06-22 03:{i:02d}:{(i * 11) % 60:02d} {src} 10.0.22.5 tcp {port} DROP")
    return "\n".join(out) + "\n"


def _ps_listing() -> str:
    r = _rng(29)
    commands = {
        "root": ["/sbin/init", "/usr/sbin/sshd -D", "sshd: root@pts/0", "/root/bin/backup.sh --daily",
                 "python3 /root/tools/agent.py", "/usr/sbin/cron -f"],
        "www-data": ["nginx: worker process", "php-fpm: pool www"],
        "postgres": ["postgres: checkpointer", "postgres: root shop [local] idle", "postgres: walwriter"],
        "deploy": ["-bash", "ssh -i /home/deploy/.ssh/id_ed25519 root@10.0.0.9", "node /srv/app/server.js"],
        "anna": ["-bash", "vim /srv/docs/root-cause.md"],
    }
    users = ["root", "root", "www-data", "postgres", "deploy", "root", "anna", "postgres"]
    out = ["USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"]
    for i in range(30):
        user = users[r(len(users))]
        cmds = commands[user]
        out.append(f"{user:<10} {100 + i * 37:>5}  {r(30) / 10:.1f}  {r(50) / 10:.1f} {10000 + r(90000):>6} "
                   f"{1000 + r(9000):>5} ?        Ss   09:{r(60):02d}   0:{r(60):02d} {cmds[r(len(cmds))]}")
    return "\n".join(out) + "\n"


def _audit_log() -> str:
    r = _rng(31)
    users = ["anna", "bruno", "deleter-bot", "carla"]
    targets = ["reports/q1.pdf", "tmp/delete-me.txt", "users/42", "trash/delete", "invoices/2024-03.csv",
               "config/app.ini"]
    out = []
    for i in range(33):
        action = ["read", "update", "delete", "read", "create", "delete", "read"][r(7)]
        out.append(f"2024-04-0{1 + i % 9}T1{i % 10}:00:{i:02d}Z|{users[r(4)]}|{action}|{targets[r(len(targets))]}")
    return "\n".join(out) + "\n"


# (key, file, content, separator (None: runs of whitespace), field number, value, output, wording, solve)
_FIELD = [
    ("http-404", "/var/log/nginx/access.log", _access_log(), None, 9, "404", "/root/not_found.txt",
     "Count the requests in `{file}` that got the HTTP status `404` (the status code is the 9th "
     "space-separated field of each line) and write only that count to `{out}`."),
    ("level-warn", "/srv/app/logs/service.log", _service_log(), None, 3, "WARN", "/srv/app/warn_count.txt",
     "How many entries of `{file}` have the level `WARN`? The level is the 3rd space-separated field of "
     "a line. Put just the number into `{out}`."),
    ("orders-refunded", "/data/shop/orders.csv", _orders_csv(), ",", 4, "refunded", "/data/shop/refunds.txt",
     "In the comma-separated file `{file}` (its first line is a header), count the orders whose `status`, "
     "the 4th column, is exactly `refunded`. Write only the number to `{out}`."),
    ("jobs-exit-1", "/opt/ci/jobs.tsv", _jobs_tsv(), "\t", 4, "1", "/opt/ci/exit1_count.txt",
     "`{file}` is tab-separated with a header line; the 4th column is each CI job's exit code. Write the "
     "number of jobs whose exit code is exactly `1` to `{out}`, and nothing else."),
    ("dns-a-queries", "/var/log/dns/queries.log", _dns_log(), None, 4, "A", "/var/log/dns/a_count.txt",
     "Each line of `{file}` is one DNS query: time, client, name, record type, result, separated by "
     "spaces. Count the queries for record type `A` (the 4th field equal to `A`) and save the count alone "
     "in `{out}`."),
    ("ssh-port-drops", "/var/log/fw/drops.log", _drops_log(), None, 6, "22", "/root/ssh_drops.txt",
     "Find how many dropped connections in `{file}` were aimed at port `22`: the destination port is the "
     "6th whitespace-separated field. Write that number, and only it, to `{out}`."),
    ("ps-root", "/tmp/ps_snapshot.txt", _ps_listing(), None, 1, "root", "/tmp/root_procs.txt",
     "`{file}` is a saved process listing with a header line. Count the processes owned by user `root` "
     "(the USER column, the 1st whitespace-separated field) and write the count as a bare number into "
     "`{out}`."),
    ("audit-deletes", "/var/log/audit/actions.log", _audit_log(), "|", 3, "delete",
     "/var/log/audit/delete_count.txt",
     "The audit log `{file}` has four `|`-separated fields per line: timestamp, user, action, target. "
     "Write to `{out}` how many lines have the action `delete`, as a number with nothing else."),
]


def _log_field_count() -> Family:
    instances = []
    for key, file, content, sep, field, value, out, wording in _FIELD:
        rows = _lines(content)
        count = sum(1 for row in rows if len(row.split(sep)) >= field and row.split(sep)[field - 1] == value)
        loose = sum(1 for row in rows if value in row)
        assert count and loose != count, key
        if sep is None:
            solve = f"awk '${field} == \"{value}\"' {file} | wc -l > {out}\n"
        else:
            flag = "\\t" if sep == "\t" else sep
            solve = f"awk -F'{flag}' '${field} == \"{value}\"' {file} | wc -l > {out}\n"
        checks = f"""
got = read({out!r})
check(got is not None, "{out} exists")
check(got is not None and got.strip() == "{count}", f"it holds only the number {count} (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out),
                                  setup=_put(file, content) + _dir(out), solve=solve, checks=checks,
                                  tags=("awk",)))
    return Family(name="log-field-count", category="text-processing",
                  recipe="awk '$N == \"VALUE\"' FILE | wc -l > OUT",
                  slip="`grep -c VALUE` also counts the lines where the value appears in another field "
                       "(a size, a path, a message)",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# line-range


def _book() -> str:
    r = _rng(37)
    words = ["harbour", "lantern", "orchard", "meadow", "compass", "willow", "ember", "tide", "saddle"]
    return "".join(f"{words[r(9)].capitalize()} and {words[r(9)]} at dusk, page {i * 3 + 1}.\n" for i in range(1, 49))


def _web_log() -> str:
    r = _rng(41)
    paths = ["/", "/cart", "/api/items", "/login", "/logout", "/search", "/checkout"]
    return "".join(f"10.0.{r(4)}.{r(250)} - - [02/Mar/2024:{8 + i // 60:02d}:{i % 60:02d}:{r(60):02d} +0000] "
                   f"\"GET {paths[r(7)]} HTTP/1.1\" {[200, 200, 302, 404][r(4)]} {r(5000)}\n" for i in range(180))


def _sales_csv() -> str:
    r = _rng(43)
    items = ["lamp", "chair", "desk", "shelf", "rug", "mirror"]
    rows = ["date,item,qty,price"]
    rows += [f"2024-01-{1 + i % 28:02d},{items[r(6)]},{1 + r(9)},{5 + r(200)}.{r(100):02d}" for i in range(60)]
    return "\n".join(rows) + "\n"


def _parser_py() -> str:
    out = ['"""A small INI-like parser."""', "", "import re", "", "", 'SECTION = re.compile(r"^\\[(\\w+)\\]$")',
           'PAIR = re.compile(r"^(\\w+)\\s*=\\s*(.*)$")', 'COMMENT = re.compile(r"^\\s*[#;]")',
           'BLANK = re.compile(r"^\\s*$")', "", ""]
    for name, pattern in [("sections", "SECTION"), ("pairs", "PAIR"), ("comments", "COMMENT"),
                          ("blanks", "BLANK")]:
        out += [f"def find_{name}(text):", f'    """Return (line number, match) for the {name} in text."""',
                f"    {name} = []", "    for number, line in enumerate(text.splitlines(), 1):",
                f"        match = {pattern}.match(line)", "        if match:",
                f"            {name}.append((number, match))", f"    return {name}", "", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _syslog() -> str:
    r = _rng(47)
    daemons = ["systemd[1]", "cron[611]", "sshd[902]", "kernel", "dhclient[455]", "rsyslogd[300]"]
    msgs = ["Started Daily apt activities.", "session opened for user root", "link eth0 up",
            "DHCPACK from 10.0.0.1", "Accepted publickey for deploy", "rotating log files", "Reached target Timers."]
    return "".join(f"Mar {3 + i // 100} {i % 24:02d}:{(i * 7) % 60:02d}:{r(60):02d} host1 "
                   f"{daemons[r(6)]}: {msgs[r(7)]} (seq {1000 + i})\n" for i in range(300))


def _novel_md() -> str:
    r = _rng(53)
    words = ["the", "rain", "station", "letter", "quiet", "window", "river", "map", "lamp", "stair"]
    out = []
    for i in range(90):
        if i % 15 == 0:
            out.append(f"## Part {i // 15 + 1}")
        else:
            out.append(" ".join(words[r(10)] for _ in range(5 + r(6))).capitalize() + ".")
    return "\n".join(out) + "\n"


def _dump_sql() -> str:
    out = ["-- dump of shop.db", "BEGIN TRANSACTION;", "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);"]
    out += [f"INSERT INTO customers VALUES({i},'customer {i:03d}');" for i in range(1, 15)]
    out += ["COMMIT;"]
    return "\n".join(out) + "\n"


def _ports_txt() -> str:
    r = _rng(59)
    services = ["ssh", "smtp", "http", "pop3", "imap", "https", "ldap", "mysql", "postgres", "redis", "amqp"]
    return "".join(f"{services[i % 11]}-{i // 11}\t{1000 + i * 3 + r(3)}/tcp\t# service {i}\n" for i in range(70))


# (key, file, content, first, last, output, wording)
_RANGE = [
    ("book-12-24", "/app/story.txt", _book(), 12, 24, "/app/story_excerpt.txt",
     "Write lines {a} through {b} of `{file}` (both included, the first line of the file is line 1) to "
     "`{out}`."),
    ("access-101-150", "/var/log/web/access.log", _web_log(), 101, 150, "/root/slice.log",
     "Copy lines {a} to {b} of `{file}`, inclusive at both ends, into `{out}`. Line numbers start at 1."),
    ("sales-2-11", "/data/sales.csv", _sales_csv(), 2, 11, "/data/first_rows.csv",
     "Save lines {a}-{b} of `{file}` (the header is line 1; include line {a} and line {b}) as `{out}`."),
    ("parser-22-39", "/home/dev/lib/parser.py", _parser_py(), 22, 39, "/home/dev/snippet.py",
     "Extract the part of `{file}` from line {a} up to and including line {b} into `{out}`, lines "
     "unchanged (counting lines from 1)."),
    ("syslog-200-215", "/var/log/syslog.1", _syslog(), 200, 215, "/tmp/syslog_window.txt",
     "I need the {n} lines of `{file}` that start at line {a} (so lines {a}..{b}, the first line being "
     "line 1). Write exactly those lines to `{out}`."),
    ("novel-61-75", "/home/writer/novel.md", _novel_md(), 61, 75, "/home/writer/part5.md",
     "Put lines {a} to {b} (inclusive; line 1 is the first line) of the manuscript `{file}` into the new "
     "file `{out}`, keeping them as they are."),
    ("dump-3-9", "/backup/dump.sql", _dump_sql(), 3, 9, "/backup/head_part.sql",
     "From `{file}`, take every line whose line number is between {a} and {b}, both included (numbering "
     "starts at 1), and write them in order to `{out}`."),
    ("ports-33-47", "/srv/ref/ports.txt", _ports_txt(), 33, 47, "/srv/ref/ports_33_47.txt",
     "`{out}` should contain lines {a}, {a1}, ... up to {b} of `{file}` (that is, {n} lines, counting "
     "the file's first line as 1). Create it."),
]


def _line_range() -> Family:
    instances = []
    for key, file, content, a, b, out, wording in _RANGE:
        rows = _lines(content)
        want = rows[a - 1:b]
        assert len(rows) > b + 1 and want not in (rows[a - 2:b - 1], rows[a:b + 1]), key
        assert want[0].strip() and want[-1].strip(), key  # lines() drops trailing empty lines
        checks = f"""
got = lines({out!r})
check(got is not None, "{out} exists")
want = {want!r}
got = [line.rstrip() for line in got] if got is not None else None
check(got == want, f"it holds lines {a} to {b}, {len(want)} lines (got {{got!r}})")
"""
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out, a=a, b=b, a1=a + 1,
                                                                      n=b - a + 1),
                                  setup=_put(file, content) + _dir(out),
                                  solve=f"sed -n '{a},{b}p' {file} > {out}\n", checks=checks,
                                  tags=("sed", "head", "tail")))
    return Family(name="line-range", category="text-processing", recipe="sed -n 'A,Bp' FILE > OUT",
                  slip="off-by-one with head/tail arithmetic (`head -n B | tail -n B-A` loses line A)",
                  instances=instances)


FAMILIES = [_grep_exact_case(), _strip_blank_lines(), _config_set_value(), _replace_all(), _sort_unique(),
            _log_field_count(), _line_range()]
