#!/bin/bash
set -e
cd /app
git config --global user.name 'Kim Lee'
git config --global user.email kim@home.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-09-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Kim Lee' -c user.email=kim@home.example commit -q "$@"
}
mkdir -p /root/dotfiles
git init -q /root/dotfiles
cd /root/dotfiles
printf '%s' 'export EDITOR=vim
' > .bashrc
git add -A && commit -m 'Add bashrc'
printf '%s' 'set number
' > .vimrc
git add -A && commit -m 'Add vimrc'
printf '%s' 'set number
inoremap jj <Esc>
' > .vimrc
git add -A && commit -m 'vim: map jj to escape' -m 'Saves reaching for the escape key.'
