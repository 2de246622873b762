#!/usr/bin/env bash
# `npm test`: install what is missing (system packages such as Chromium for the browser
# tests, then node modules), start the local stores (unless URLs are set), type-check, then
# run every test (unit, integration against the real stores, browser).
# Extra arguments are passed to ava (e.g. `npm test -- test/indexing`).
#
# Stores this run started (none was running before) are stopped when it ends, however it
# ends: they hold about 1.5 GB. SHELFMARK_KEEP_STORES=1 keeps them up (the next run then
# starts at once; `npm run services -- down` stops them). Stores that were already running
# are left as they were.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
bash scripts/install/ensure-system.sh test
bash scripts/install/ensure-install.sh

running_before="$(bash scripts/stores/services.sh status 2>/dev/null | grep -c ': running' || true)"
stop_stores() {
  local code=$?
  if [ "${SHELFMARK_KEEP_STORES:-0}" = 1 ]; then
    echo "[test] the local stores stay up (SHELFMARK_KEEP_STORES=1); stop them with: npm run services -- down" >&2
  elif [ "$running_before" != 0 ]; then
    echo "[test] the local stores were running before this run, so they stay up; stop them with: npm run services -- down" >&2
  elif [ -z "${ELASTICSEARCH_URL:-}" ] || [ -z "${MONGODB_URI:-}" ]; then
    echo "[test] stopping the local stores this run started (SHELFMARK_KEEP_STORES=1 keeps them)" >&2
    bash scripts/stores/services.sh down >/dev/null 2>&1 || echo "[test] could not stop every store: run npm run services -- down" >&2
  fi
  exit "$code"
}
trap stop_stores EXIT

bash scripts/stores/services.sh up
echo "[test] type-checking" >&2
npx tsc --noEmit -p .
echo "[test] running tests" >&2
npx ava "$@"
