#!/bin/bash
set -e
python3 -m json.tool --indent 2 /opt/k8s/pod.json > /opt/k8s/pod.pretty.json
