#!/bin/bash
set -e
printf 'id,name,price\n1,pen,2\n2,book,12\n3,lamp,30\n' > /app/data.csv
