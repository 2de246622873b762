#!/usr/bin/env bash
# Back up and restore a whole Shelfmark installation (metadata and snippets) with each
# store's own tools (docs/BACKUPS.md):
#
#   bash scripts/stores/backup.sh backup  <new folder>
#   bash scripts/stores/backup.sh restore <backup folder>
#
# Elasticsearch: a snapshot of the installation's indices (<prefix>-*, their alias included)
# into a filesystem repository under the node's `path.repo` (scripts/stores/services.sh sets it to
# <es base>/es-snapshots), copied into the backup folder; a restore copies it back, deletes
# the installation's indices and restores them.
# MongoDB-compatible store: the local FerretDB's SQLite database file copied with SQLite's
# online backup (`sqlite3 .backup`, consistent while FerretDB runs); a restore stops that
# FerretDB, puts the file back and starts it again. Against a real MongoDB (MONGODB_URI set
# and `mongodump` on PATH): `mongodump --archive --gzip` / `mongorestore --drop`.
# After a restore, scripts/stores/backup-check.ts checks that every library version's served
# generation has its snippets.
#
# Environment: the server's own — SHELFMARK_DATA_DIR, MONGODB_DB (default shelfmark),
# SHELFMARK_INDEX_PREFIX (default shelfmark), ELASTICSEARCH_URL / MONGODB_URI (default: the
# local stores' URLs in <data>/run).
# Run backups while no build is publishing (a build finishing between the two stores' copies
# leaves that library pointing at a generation the snapshot lacks; the check names it, and a
# refresh of that library mends it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${SHELFMARK_DATA_DIR:-$ROOT/.data}"
DB="${MONGODB_DB:-shelfmark}"
PREFIX="${SHELFMARK_INDEX_PREFIX:-shelfmark}"
ES_USER="shelfmark-es"
log() { printf '[backup] %s\n' "$*" >&2; }
die() { printf '[backup] error: %s\n' "$*" >&2; exit 1; }

ES_URL="${ELASTICSEARCH_URL:-$(cat "$DATA_DIR/run/es.url" 2>/dev/null || true)}"
MONGO_URL="${MONGODB_URI:-$(cat "$DATA_DIR/run/mongo.url" 2>/dev/null || true)}"
[ -n "$ES_URL" ] || die "no Elasticsearch: set ELASTICSEARCH_URL or start the local stores (npm run services -- up)"
[ -n "$MONGO_URL" ] || die "no MongoDB: set MONGODB_URI or start the local stores (npm run services -- up)"
ES_URL="${ES_URL%/}"

es() { # method path [json body]: fails with Elasticsearch's answer on an error status
  local method="$1" path="$2" body="${3:-}" out code
  out="$(mktemp)"
  if [ -n "$body" ]; then
    code="$(curl -sS -o "$out" -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' "$ES_URL$path" -d "$body")"
  else
    code="$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "$ES_URL$path")"
  fi
  if [ "${code:0:1}" != 2 ]; then
    local msg; msg="$(cat "$out")"; rm -f "$out"
    die "Elasticsearch answered $code to $method $path: $msg"
  fi
  cat "$out"; rm -f "$out"
}

# The node's snapshot root (path.repo); empty when the node has none.
es_repo_root() {
  es GET '/_nodes/_local/settings?filter_path=nodes.*.settings.path.repo' |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const n=Object.values(JSON.parse(s||"{}").nodes??{})[0];const r=n?.settings?.path?.repo;process.stdout.write(Array.isArray(r)?r[0]:(r??""))})'
}

need_repo_root() {
  local root; root="$(es_repo_root)"
  [ -n "$root" ] || die "Elasticsearch at $ES_URL has no path.repo, so it cannot take snapshots: set path.repo in its elasticsearch.yml and restart it (scripts/stores/services.sh sets it for the local node: \`npm run services -- down es && npm run services -- up es\`)."
  echo "$root"
}

es_owner() { [ "$(id -u)" = 0 ] && id "$ES_USER" >/dev/null 2>&1 && chown -R "$ES_USER" "$@" || true; }

local_sqlite() { # the local FerretDB's database file, when the store is the local one
  local file="$DATA_DIR/ferretdb/$DB.sqlite"
  if [ -z "${MONGODB_URI:-}" ] && [ -f "$file" ]; then echo "$file"; fi
}

index_names() { # the installation's indices, one per line
  es GET "/_cat/indices/$PREFIX-*?h=index&expand_wildcards=all" 2>/dev/null | tr -d ' ' | grep -E "^$PREFIX-" || true
}

backup() {
  local dest="$1"
  [ -e "$dest" ] && die "$dest already exists: give a new folder"
  local root stamp repo_dir repo snap
  root="$(need_repo_root)"
  stamp="$(date -u +%Y%m%dt%H%M%Sz)"
  mkdir -p "$dest/mongo"
  # 1. Metadata: the MongoDB-compatible store.
  local sqlite; sqlite="$(local_sqlite)"
  if [ -n "$sqlite" ]; then
    command -v sqlite3 >/dev/null || die "sqlite3 is needed to copy the local FerretDB's database (apt-get install sqlite3)"
    log "copying $sqlite (SQLite online backup)"
    sqlite3 "$sqlite" ".timeout 30000" ".backup '$dest/mongo/$DB.sqlite'"
    sqlite3 "$dest/mongo/$DB.sqlite" "PRAGMA integrity_check;" | grep -qx ok || die "the copied database failed SQLite's integrity check"
  elif command -v mongodump >/dev/null; then
    log "mongodump of database $DB"
    mongodump --uri="$MONGO_URL" --db="$DB" --archive="$dest/mongo/$DB.archive.gz" --gzip --quiet
  else
    die "no way to copy database $DB: it is not the local FerretDB ($DATA_DIR/ferretdb/$DB.sqlite) and mongodump is not installed (install MongoDB Database Tools)"
  fi
  # 2. Snippets: an Elasticsearch snapshot, copied out of path.repo.
  [ -n "$(index_names)" ] || die "Elasticsearch at $ES_URL has no index named $PREFIX-*: is SHELFMARK_INDEX_PREFIX right?"
  repo="shelfmark-backup-$stamp"; snap="snapshot-$stamp"
  repo_dir="$root/$repo"
  mkdir -p "$repo_dir"; es_owner "$repo_dir"
  es PUT "/_snapshot/$repo" "{\"type\":\"fs\",\"settings\":{\"location\":\"$repo_dir\"}}" >/dev/null
  log "snapshot of $PREFIX-* into $repo_dir"
  local result
  result="$(es PUT "/_snapshot/$repo/$snap?wait_for_completion=true" "{\"indices\":\"$PREFIX-*\",\"include_global_state\":false}")"
  echo "$result" | grep -q '"state":"SUCCESS"' || { es DELETE "/_snapshot/$repo" >/dev/null || true; die "the snapshot did not succeed: $result"; }
  cp -a "$repo_dir" "$dest/elasticsearch"
  es DELETE "/_snapshot/$repo" >/dev/null
  rm -rf "$repo_dir"
  cat > "$dest/manifest.json" <<JSON
{"format":"shelfmark-backup","formatVersion":1,"createdAt":"$(date -u +%FT%TZ)","mongodbDb":"$DB","indexPrefix":"$PREFIX","snapshot":"$snap","mongo":"$( [ -n "$sqlite" ] && echo sqlite || echo mongodump )"}
JSON
  log "backup written to $dest ($(du -sh "$dest" | cut -f1))"
}

restore() {
  local src="$1"
  [ -f "$src/manifest.json" ] || die "$src is not a Shelfmark backup (no manifest.json)"
  local snap kind bdb bprefix
  snap="$(node -p 'require(process.argv[1]).snapshot' "$src/manifest.json")"
  kind="$(node -p 'require(process.argv[1]).mongo' "$src/manifest.json")"
  bdb="$(node -p 'require(process.argv[1]).mongodbDb' "$src/manifest.json")"
  bprefix="$(node -p 'require(process.argv[1]).indexPrefix' "$src/manifest.json")"
  [ "$bdb" = "$DB" ] && [ "$bprefix" = "$PREFIX" ] || die "the backup is of MONGODB_DB=$bdb, SHELFMARK_INDEX_PREFIX=$bprefix; set the same to restore it (this installation: $DB, $PREFIX)"
  local root stamp repo repo_dir
  root="$(need_repo_root)"
  stamp="$(date -u +%Y%m%dt%H%M%Sz)"
  # 1. Snippets first: while they are restored the old metadata still points at its generations.
  repo="shelfmark-restore-$stamp"; repo_dir="$root/$repo"
  cp -a "$src/elasticsearch" "$repo_dir"; es_owner "$repo_dir"
  es PUT "/_snapshot/$repo" "{\"type\":\"fs\",\"settings\":{\"location\":\"$repo_dir\",\"readonly\":true}}" >/dev/null
  local names; names="$(index_names | paste -sd, -)"
  if [ -n "$names" ]; then
    log "deleting the current indices: $names"
    es DELETE "/$names" >/dev/null
  fi
  log "restoring snapshot $snap"
  local result
  result="$(es POST "/_snapshot/$repo/$snap/_restore?wait_for_completion=true" "{\"indices\":\"$PREFIX-*\",\"include_aliases\":true,\"include_global_state\":false}")"
  es DELETE "/_snapshot/$repo" >/dev/null
  rm -rf "$repo_dir"
  echo "$result" | grep -q '"failed":0' || die "the restore reported failed shards: $result"
  es GET "/_cluster/health/$PREFIX-*?wait_for_status=yellow&timeout=60s" >/dev/null
  # 2. Metadata.
  if [ "$kind" = sqlite ]; then
    local file="$DATA_DIR/ferretdb/$DB.sqlite"
    [ -z "${MONGODB_URI:-}" ] || die "the backup holds a local FerretDB database; unset MONGODB_URI to restore it into the local store"
    log "stopping the local FerretDB to put $DB back"
    bash "$ROOT/scripts/stores/services.sh" down mongo
    rm -f "$file" "$file-wal" "$file-shm"
    cp "$src/mongo/$DB.sqlite" "$file"
    bash "$ROOT/scripts/stores/services.sh" up mongo
  else
    command -v mongorestore >/dev/null || die "mongorestore is needed to restore $src/mongo/$DB.archive.gz (install MongoDB Database Tools)"
    mongorestore --uri="$MONGO_URL" --archive="$src/mongo/$DB.archive.gz" --gzip --drop --nsInclude="$DB.*" --quiet
  fi
  # 3. Do the two agree?
  log "checking that every served generation has its snippets"
  (cd "$ROOT" && SHELFMARK_DATA_DIR="$DATA_DIR" node --import tsx scripts/stores/backup-check.ts)
  log "restored from $src"
}

case "${1:-}" in
  backup) [ -n "${2:-}" ] || die "usage: backup.sh backup <new folder>"; backup "$2" ;;
  restore) [ -n "${2:-}" ] || die "usage: backup.sh restore <backup folder>"; restore "$2" ;;
  *) die "usage: backup.sh backup <new folder> | restore <backup folder>" ;;
esac
