#!/bin/bash
set -e
ln -sfn /srv/app/releases/1.5.0 /srv/app/current
