#!/bin/bash
set -e
cd /app
mkdir -p /data
cat > /data/users.csv <<'EOF'
id,name,email,country,signup_date
1,Ben,user1@example.com,Canada,2023-01-15
2,Goran,user2@example.com,Canada,2023-02-15
3,Ana,user3@example.com,Kenya,2023-03-15
4,Lena,user4@example.com,Kenya,2023-04-15
5,Chloe,user5@example.com,Japan,2023-05-15
6,Ivo,user6@example.com,Portugal,2023-06-15
7,Goran,user7@example.com,Portugal,2023-07-15
8,Lena,user8@example.com,Canada,2023-08-15
9,Elif,user9@example.com,Kenya,2023-09-15
10,Hana,user10@example.com,Canada,2023-10-15
11,Ivo,user11@example.com,Chile,2023-11-15
12,Jun,user12@example.com,Canada,2023-12-15
13,Jun,user13@example.com,Norway,2023-01-15
14,Ana,user14@example.com,Norway,2023-02-15
15,Goran,user15@example.com,Japan,2023-03-15
16,Kofi,user16@example.com,Norway,2023-04-15
17,Farah,user17@example.com,Kenya,2023-05-15
18,Lena,user18@example.com,Poland,2023-06-15
19,Farah,user19@example.com,Kenya,2023-07-15
20,Lena,user20@example.com,Poland,2023-08-15
21,Farah,user21@example.com,Portugal,2023-09-15
22,Farah,user22@example.com,Japan,2023-10-15
23,Hana,user23@example.com,Portugal,2023-11-15
24,Dmitri,user24@example.com,Chile,2023-12-15
25,Hana,user25@example.com,Canada,2023-01-15
26,Elif,user26@example.com,Poland,2023-02-15
27,Jun,user27@example.com,Portugal,2023-03-15
28,Hana,user28@example.com,Japan,2023-04-15
29,Kofi,user29@example.com,Kenya,2023-05-15
30,Elif,user30@example.com,Poland,2023-06-15
31,Farah,user31@example.com,Norway,2023-07-15
32,Dmitri,user32@example.com,Kenya,2023-08-15
33,Elif,user33@example.com,Kenya,2023-09-15
34,Ana,user34@example.com,Kenya,2023-10-15
35,Dmitri,user35@example.com,Kenya,2023-11-15
36,Ivo,user36@example.com,Norway,2023-12-15
37,Hana,user37@example.com,Chile,2023-01-15
38,Ben,user38@example.com,Canada,2023-02-15
39,Ana,user39@example.com,Kenya,2023-03-15
40,Chloe,user40@example.com,Canada,2023-04-15
EOF
