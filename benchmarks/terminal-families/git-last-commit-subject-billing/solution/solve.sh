#!/bin/bash
set -e
git -C /srv/git/billing log -1 --format=%s > /srv/git/billing_subject.txt
