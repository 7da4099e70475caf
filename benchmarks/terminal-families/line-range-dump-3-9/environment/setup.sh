#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /backup/dump.sql)"
cat > /backup/dump.sql <<'__END_OF_FILE__'
-- dump of shop.db
BEGIN TRANSACTION;
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO customers VALUES(1,'customer 001');
INSERT INTO customers VALUES(2,'customer 002');
INSERT INTO customers VALUES(3,'customer 003');
INSERT INTO customers VALUES(4,'customer 004');
INSERT INTO customers VALUES(5,'customer 005');
INSERT INTO customers VALUES(6,'customer 006');
INSERT INTO customers VALUES(7,'customer 007');
INSERT INTO customers VALUES(8,'customer 008');
INSERT INTO customers VALUES(9,'customer 009');
INSERT INTO customers VALUES(10,'customer 010');
INSERT INTO customers VALUES(11,'customer 011');
INSERT INTO customers VALUES(12,'customer 012');
INSERT INTO customers VALUES(13,'customer 013');
INSERT INTO customers VALUES(14,'customer 014');
COMMIT;
__END_OF_FILE__
mkdir -p "$(dirname /backup/head_part.sql)"
