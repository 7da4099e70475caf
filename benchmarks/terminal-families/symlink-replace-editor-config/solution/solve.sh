#!/bin/bash
set -e
ln -sfn /home/dev/dotfiles/editor-v2 /home/dev/.config/editor
