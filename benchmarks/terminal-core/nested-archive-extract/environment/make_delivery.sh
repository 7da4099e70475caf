#!/bin/bash
set -e
W=$(mktemp -d); cd $W
mkdir -p l1/docs l1/images z/data p1/records p2/records p2/nested d/records
echo "Delivery of quarterly records" > l1/docs/readme.txt
printf '\x89PNG fake' > l1/images/logo.png
printf 'id,value\n3,gamma\n1,alpha\n' > p1/records/a.csv
printf 'id,value\r\n10,kappa\r\n2,beta\r\n' > p1/records/b.csv
printf 'id,value\n7,eta\n12,mu' > p2/records/c.csv
printf 'id,value\n5,epsilon\n11,"lambda, the eleventh"\n' > d/records/d.csv
printf 'id,value\n99,stale\n' > p2/records/e.csv.bak
(cd d && zip -q -r ../p2/nested/deeper.zip records)
(cd p1 && tar -cjf ../z/data/part1.tar.bz2 records)
(cd p2 && tar -cJf ../z/data/part2.tar.xz records nested)
printf 'remember to reconcile ids\n' | gzip -c > z/notes.gz
printf 'id,value\n4,delta\n' > z/loose.csv
(cd z && zip -q -r ../l1/payload.zip data notes.gz loose.csv)
mkdir -p /app/incoming
(cd l1 && tar -czf /app/incoming/delivery.tar.gz docs images payload.zip)
cd / && rm -rf $W
