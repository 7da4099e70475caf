#!/bin/bash
set -e
cd /app
git config --global user.name 'Sam Ops'
git config --global user.email sam@infra.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-08-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Sam Ops' -c user.email=sam@infra.example commit -q "$@"
}
mkdir -p /app/infra
git init -q /app/infra
cd /app/infra
printf '%s' 'module "workers" {
  source = "./workers"
}
' > main.tf
printf '%s' 'variable "instance_type" {
  default = "t3.small"
}
' > variables.tf
git add -A && commit -m 'Add base terraform layout'
printf '%s' 'instance_type = "t3.small"
workers = 4
' > staging.tfvars
git add -A && commit -m 'Add staging environment'
printf '%s' 'instance_type = "t3.small"
workers = 8
' > staging.tfvars
git add -A && commit -m 'Increase worker count to 8 (was 4)'
printf '%s' 'variable "instance_type" {
  default = "t3.large"
}
' > variables.tf
printf '%s' 'module "workers" {
  source = "./workers"
  count  = 2
}
' > main.tf
printf '%s' 'Plan: 2 to add, 0 to change, 0 to destroy.
' > plan.out
