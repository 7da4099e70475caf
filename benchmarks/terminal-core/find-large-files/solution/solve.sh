#!/bin/bash
cd /app/storage
find . -type f -size +524288c -printf '%s %P\n' | LC_ALL=C sort -k1,1nr -k2 > /app/large_files.txt
