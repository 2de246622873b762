#!/usr/bin/env bash
# Installs schemathesis (the OpenAPI-driven fuzzer of scripts/run/fuzz-api.ts) from PyPI into a
# venv cached outside the clone, once per version; prints the path of its `st` command.
# A `.complete` marker is written last, so an interrupted install is redone, not trusted.
set -euo pipefail
VERSION=4.32.5
VENV="${SHELFMARK_CACHE_DIR:-$HOME/.cache/shelfmark}/venvs/schemathesis-$VERSION"
if [ ! -f "$VENV/.complete" ]; then
  command -v python3 >/dev/null || { echo "[schemathesis] python3 (3.9+) is needed" >&2; exit 1; }
  rm -rf "$VENV"
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
  touch "$VENV/.complete"
fi
echo "$VENV/bin/st"
