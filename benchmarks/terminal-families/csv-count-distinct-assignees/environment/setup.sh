#!/bin/bash
set -e
cd /app
mkdir -p /app/tickets
cat > /app/tickets/tickets.csv <<'EOF'
id,title,assignee,priority,state
1,Export broken,tomas,high,open
2,Export broken,yusuf,low,open
3,Export broken,ruth,low,open
4,Slow page,nadia,low,open
5,Typo on invoice,oskar,high,open
6,Export broken,maria,high,closed
7,Export broken,oskar,high,closed
8,Slow page,ruth,low,open
9,Slow page,ruth,low,closed
10,Login fails,nadia,low,open
11,Typo on invoice,maria,high,open
12,Export broken,sam,high,open
13,Typo on invoice,li,high,open
14,Login fails,yusuf,high,closed
15,Export broken,tomas,low,closed
16,Login fails,sam,high,closed
17,Login fails,maria,low,open
18,Slow page,ruth,high,closed
19,Export broken,oskar,low,open
20,Slow page,li,low,closed
21,Typo on invoice,maria,low,closed
22,Typo on invoice,li,high,open
23,Login fails,oskar,high,closed
24,Typo on invoice,li,low,closed
25,Slow page,li,low,closed
26,Login fails,ruth,low,open
27,Slow page,nadia,high,open
28,Slow page,li,high,closed
29,Export broken,ruth,high,open
30,Export broken,yusuf,low,closed
31,Login fails,sam,high,open
32,Export broken,sam,low,closed
33,Typo on invoice,li,low,closed
34,Slow page,li,high,open
35,Export broken,maria,low,closed
EOF
