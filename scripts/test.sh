#!/usr/bin/env bash
# `npm test`: install what is missing (system packages such as Chromium for the browser
# tests, then node modules), start the local stores (unless URLs are set), type-check, then
# run every test (unit, integration against the real stores, browser).
# Extra arguments are passed to ava (e.g. `npm test -- test/indexing`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/ensure-system.sh test
bash scripts/ensure-install.sh
bash scripts/services.sh up
echo "[test] type-checking" >&2
npx tsc --noEmit -p .
echo "[test] running tests" >&2
npx ava "$@"
