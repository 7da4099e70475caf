#!/bin/bash
set -e
sed -n '61,75p' /home/writer/novel.md > /home/writer/part5.md
