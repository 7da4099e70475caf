#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/ref/ports.txt)"
cat > /srv/ref/ports.txt <<'__END_OF_FILE__'
ssh-0	1002/tcp	# service 0
smtp-0	1004/tcp	# service 1
http-0	1006/tcp	# service 2
pop3-0	1009/tcp	# service 3
imap-0	1012/tcp	# service 4
https-0	1017/tcp	# service 5
ldap-0	1020/tcp	# service 6
mysql-0	1023/tcp	# service 7
postgres-0	1025/tcp	# service 8
redis-0	1029/tcp	# service 9
amqp-0	1031/tcp	# service 10
ssh-1	1033/tcp	# service 11
smtp-1	1037/tcp	# service 12
http-1	1040/tcp	# service 13
pop3-1	1042/tcp	# service 14
imap-1	1045/tcp	# service 15
https-1	1049/tcp	# service 16
ldap-1	1051/tcp	# service 17
mysql-1	1055/tcp	# service 18
postgres-1	1058/tcp	# service 19
redis-1	1060/tcp	# service 20
amqp-1	1063/tcp	# service 21
ssh-2	1067/tcp	# service 22
smtp-2	1070/tcp	# service 23
http-2	1072/tcp	# service 24
pop3-2	1076/tcp	# service 25
imap-2	1078/tcp	# service 26
https-2	1083/tcp	# service 27
ldap-2	1086/tcp	# service 28
mysql-2	1087/tcp	# service 29
postgres-2	1090/tcp	# service 30
redis-2	1095/tcp	# service 31
amqp-2	1098/tcp	# service 32
ssh-3	1100/tcp	# service 33
smtp-3	1103/tcp	# service 34
http-3	1106/tcp	# service 35
pop3-3	1109/tcp	# service 36
imap-3	1112/tcp	# service 37
https-3	1114/tcp	# service 38
ldap-3	1118/tcp	# service 39
mysql-3	1121/tcp	# service 40
postgres-3	1125/tcp	# service 41
redis-3	1126/tcp	# service 42
amqp-3	1130/tcp	# service 43
ssh-4	1133/tcp	# service 44
smtp-4	1135/tcp	# service 45
http-4	1139/tcp	# service 46
pop3-4	1142/tcp	# service 47
imap-4	1144/tcp	# service 48
https-4	1147/tcp	# service 49
ldap-4	1151/tcp	# service 50
mysql-4	1153/tcp	# service 51
postgres-4	1156/tcp	# service 52
redis-4	1161/tcp	# service 53
amqp-4	1162/tcp	# service 54
ssh-5	1167/tcp	# service 55
smtp-5	1168/tcp	# service 56
http-5	1172/tcp	# service 57
pop3-5	1175/tcp	# service 58
imap-5	1178/tcp	# service 59
https-5	1181/tcp	# service 60
ldap-5	1184/tcp	# service 61
mysql-5	1188/tcp	# service 62
postgres-5	1189/tcp	# service 63
redis-5	1192/tcp	# service 64
amqp-5	1195/tcp	# service 65
ssh-6	1199/tcp	# service 66
smtp-6	1203/tcp	# service 67
http-6	1206/tcp	# service 68
pop3-6	1208/tcp	# service 69
__END_OF_FILE__
mkdir -p "$(dirname /srv/ref/ports_33_47.txt)"
