#!/bin/bash
set -e
getent group ops >/dev/null || groupadd -g 2002 ops
getent group auditors >/dev/null || groupadd -g 2003 auditors
getent group deploy >/dev/null || groupadd -g 999 deploy
useradd -u 1501 -g developers -G ops -s /bin/bash -d /home/alice -m alice
useradd -u 1502 -g developers -s /bin/bash -d /home/bob -m bob
mkdir -p /srv
useradd -u 1503 -g ops -G developers,auditors -s /bin/sh -d /srv/carol -m carol
useradd -r -u 999 -g deploy -s /usr/sbin/nologin -d /var/lib/deploy -m deploy
chmod 750 /home/alice /home/bob /srv/carol
chmod 700 /var/lib/deploy
passwd -l deploy
userdel -r legacy 2>/dev/null || true
getent group legacy >/dev/null && groupdel legacy
usermod -L -s /usr/sbin/nologin intern
mkdir -p /srv/shared
chown root:developers /srv/shared
chmod 2770 /srv/shared
