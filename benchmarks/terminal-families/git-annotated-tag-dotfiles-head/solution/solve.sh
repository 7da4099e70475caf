#!/bin/bash
set -e
git -C /root/dotfiles tag -a snapshot-2024-06 -m 'Dotfiles snapshot, June 2024'
