#!/bin/bash
set -e
cd /root/dotfiles
git add -- .bashrc
git commit -q -m 'Add ll alias'
