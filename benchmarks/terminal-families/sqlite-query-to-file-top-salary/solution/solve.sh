#!/bin/bash
set -e
sqlite3 /srv/hr/staff.db "SELECT MAX(salary) FROM employees WHERE department = 'Engineering';" > /srv/hr/top_salary.txt
