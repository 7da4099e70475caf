#!/bin/bash
set -e
git -C /root/dotfiles log -1 --format=%s > /root/subject.txt
