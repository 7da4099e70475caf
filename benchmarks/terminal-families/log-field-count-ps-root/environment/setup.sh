#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /tmp/ps_snapshot.txt)"
cat > /tmp/ps_snapshot.txt <<'__END_OF_FILE__'
USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
www-data     100  0.0  4.0  24849  3613 ?        Ss   09:31   0:18 php-fpm: pool www
root         137  2.6  0.3  18362  6162 ?        Ss   09:59   0:43 /sbin/init
deploy       174  1.2  2.1  87138  9010 ?        Ss   09:38   0:46 node /srv/app/server.js
root         211  1.6  1.6  46025  3109 ?        Ss   09:00   0:41 sshd: root@pts/0
root         248  1.0  0.4  46175  5371 ?        Ss   09:13   0:34 /sbin/init
root         285  2.6  0.9  94485  3892 ?        Ss   09:53   0:23 /usr/sbin/cron -f
postgres     322  2.6  0.1  51417  6295 ?        Ss   09:12   0:15 postgres: walwriter
deploy       359  0.2  1.9  94684  6942 ?        Ss   09:38   0:57 node /srv/app/server.js
root         396  0.8  3.5  81566  3984 ?        Ss   09:43   0:59 /usr/sbin/cron -f
root         433  1.6  3.0  38224  3029 ?        Ss   09:03   0:51 python3 /root/tools/agent.py
postgres     470  1.0  2.2  69040  2181 ?        Ss   09:38   0:03 postgres: checkpointer
root         507  2.0  2.9  83215  8808 ?        Ss   09:16   0:30 sshd: root@pts/0
root         544  0.8  4.7  36957  7037 ?        Ss   09:29   0:59 sshd: root@pts/0
deploy       581  0.0  4.2  45706  8550 ?        Ss   09:37   0:12 ssh -i /home/deploy/.ssh/id_ed25519 root@10.0.0.9
www-data     618  0.7  4.6  77783  1314 ?        Ss   09:44   0:35 nginx: worker process
postgres     655  2.4  1.9  76674  2049 ?        Ss   09:34   0:06 postgres: checkpointer
root         692  0.7  1.1  96140  6027 ?        Ss   09:23   0:40 /root/bin/backup.sh --daily
postgres     729  0.2  3.0  32309  1560 ?        Ss   09:23   0:20 postgres: walwriter
root         766  2.9  3.5  57454  9648 ?        Ss   09:34   0:52 /usr/sbin/cron -f
postgres     803  0.2  2.6  57973  9530 ?        Ss   09:20   0:34 postgres: walwriter
postgres     840  1.7  2.0  90763  4576 ?        Ss   09:41   0:48 postgres: walwriter
www-data     877  1.4  0.7  29872  2897 ?        Ss   09:41   0:49 nginx: worker process
root         914  0.3  1.9  51540  2085 ?        Ss   09:44   0:20 sshd: root@pts/0
www-data     951  0.2  4.6  89272  4460 ?        Ss   09:02   0:11 php-fpm: pool www
anna         988  1.5  4.4  58938  1046 ?        Ss   09:18   0:04 vim /srv/docs/root-cause.md
anna        1025  1.0  3.1  96699  1138 ?        Ss   09:58   0:37 vim /srv/docs/root-cause.md
root        1062  2.5  1.1  92779  1658 ?        Ss   09:13   0:28 /usr/sbin/sshd -D
root        1099  2.4  1.8  97803  7565 ?        Ss   09:31   0:47 sshd: root@pts/0
anna        1136  0.7  3.7  28025  7139 ?        Ss   09:20   0:29 vim /srv/docs/root-cause.md
root        1173  1.5  0.2  10342  4772 ?        Ss   09:24   0:45 /sbin/init
__END_OF_FILE__
mkdir -p "$(dirname /tmp/root_procs.txt)"
