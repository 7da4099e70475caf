#!/bin/bash
set -e
cd /app
mkdir -p /opt/k8s
cat > /opt/k8s/pod.json <<'EOF'
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-0","labels":{"app":"web","tier":"front"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25","ports":[{"containerPort":80}]}]}}
EOF
