#!/bin/bash
set -e
sqlite3 /app/catalog/books.db "UPDATE books SET on_sale = 1 WHERE year < 1990;"
