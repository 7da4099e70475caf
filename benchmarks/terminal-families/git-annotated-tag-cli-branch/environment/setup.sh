#!/bin/bash
set -e
cd /app
git config --global user.name 'Ola Nordmann'
git config --global user.email ola@agent.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-07-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Ola Nordmann' -c user.email=ola@agent.example commit -q "$@"
}
mkdir -p /opt/src/cli
git init -q /opt/src/cli
cd /opt/src/cli
mkdir -p agent
printf '%s' '__version__ = "1.1.0"
' > agent/__init__.py
mkdir -p agent
printf '%s' 'INTERVAL = 60
' > agent/config.py
git add -A && commit -m 'Initial agent skeleton'
mkdir -p agent
printf '%s' 'def collect():
    return {"cpu": 0.0}
' > agent/collector.py
git add -A && commit -m 'Collect CPU metrics'
git checkout -q -b release-1.2
mkdir -p agent
printf '%s' '__version__ = "1.2.0"
' > agent/__init__.py
git add -A && commit -m 'Prepare 1.2 release'
mkdir -p agent
printf '%s' 'VERIFY = True
' > agent/tls.py
git add -A && commit -m 'Backport TLS fix from main'
git checkout -q main
mkdir -p agent
printf '%s' 'def collect():
    return {"cpu": 0.0, "mem": 0.0}
' > agent/collector.py
git add -A && commit -m 'Collect memory metrics'
printf '%s' 'interval = 60
' > config.toml
git add -A && commit -m 'Switch config to TOML'
