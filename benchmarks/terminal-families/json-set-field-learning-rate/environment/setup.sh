#!/bin/bash
set -e
cd /app
mkdir -p /data/model
cat > /data/model/params.json <<'EOF'
{
  "model": "resnet18",
  "training": {
    "epochs": 30,
    "batch_size": 64,
    "learning_rate": 0.001
  },
  "seed": 1234
}
EOF
