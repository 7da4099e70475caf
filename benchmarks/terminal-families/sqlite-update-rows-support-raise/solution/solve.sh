#!/bin/bash
set -e
sqlite3 /home/hr/payroll.db "UPDATE staff SET salary = salary + 1000 WHERE dept = 'Support';"
