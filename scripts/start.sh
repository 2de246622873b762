#!/usr/bin/env bash
# `npm start`: install what is missing, provision the local stores unless
# ELASTICSEARCH_URL / MONGODB_URI point at existing ones, then serve on PORT (default 3000).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/ensure-system.sh start
bash scripts/ensure-install.sh
bash scripts/services.sh up
exec node --import tsx src/main.ts "$@"
