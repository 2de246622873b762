#!/usr/bin/env bash
# `npm start`: install what is missing, provision the local stores unless
# ELASTICSEARCH_URL / MONGODB_URI point at existing ones, build dist/ if it is missing or
# older than src/ (scripts/run/build.mjs), then serve the compiled server on PORT (default 3000).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
bash scripts/install/ensure-system.sh start
bash scripts/install/ensure-install.sh
bash scripts/stores/services.sh up
node scripts/run/build.mjs --if-stale
exec node --enable-source-maps dist/main.js "$@"
