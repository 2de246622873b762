#!/usr/bin/env bash
# Local stores for Shelfmark: Elasticsearch (integ-test zip from Maven Central) and FerretDB
# (SQLite backend, built from its Go module). Used when ELASTICSEARCH_URL / MONGODB_URI are
# unset. Idempotent: `up` twice is a no-op; `down` stops only what `up` started (pid files).
#
#   bash scripts/stores/services.sh up|down|restart|status [es|mongo]
#
# `up` also starts a supervisor (scripts/stores/supervise-stores.mjs) that restarts a store that
# dies or stops answering reads, on the same port. Ports, once chosen, stay fixed for a data
# directory (<data>/run/*.port), so a restarted store is where the running server expects it.
#
# Environment:
#   SHELFMARK_DATA_DIR   where data, logs and pid files live (default: <repo>/.data)
#   SHELFMARK_CACHE_DIR  build caches outside the clone (default: ~/.cache/shelfmark)
#   SHELFMARK_ES_VERSION Elasticsearch version (default: 9.5.0 with a JDK >= 21, else 8.19.7)
#   SHELFMARK_ES_HEAP    heap size (default 1g)
#   SHELFMARK_ES_PORT / SHELFMARK_MONGO_PORT  preferred ports (default 9200 / 27017; the next
#                        free port is taken when busy, then kept for this data directory)
#   SHELFMARK_SUPERVISE  0 to start the stores without the supervisor
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${SHELFMARK_DATA_DIR:-$ROOT/.data}"
CACHE_DIR="${SHELFMARK_CACHE_DIR:-$HOME/.cache/shelfmark}"
RUN_DIR="$DATA_DIR/run"
FERRET_VERSION="1.24.2"
# Our build of it carries one fix (build_ferret): a new fix means a new name, so caches rebuild.
FERRET_BUILD="$FERRET_VERSION-id-index"
ES_USER="shelfmark-es"
log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] error: %s\n' "$*" >&2; exit 1; }

mkdir -p "$RUN_DIR" "$CACHE_DIR"
# One `up`/`down` at a time per data directory: test processes starting together would
# otherwise each start an Elasticsearch, and the losers' would be left running unrecorded.
# (The stores are started with fd 9 closed, so they do not hold the lock while they run.)
if [ "${1:-status}" != status ] && command -v flock >/dev/null 2>&1; then
  exec 9>"$RUN_DIR/.services.lock"
  flock 9
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p="$1"
  while ! port_free "$p"; do p=$((p + 1)); done
  echo "$p"
}
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
# The port of a store for this data directory: the one chosen the first time (kept in
# <run>/<name>.port), else the first free one from the preferred port.
fixed_port() {
  local name="$1" preferred="$2" file="$RUN_DIR/$1.port" p url="${3:-}"
  # A store started before ports were kept: its URL file still names its port.
  if [ ! -f "$file" ] && [ -n "$url" ] && [ -f "$url" ]; then
    sed -E 's#.*:([0-9]+)/?$#\1#' "$url" > "$file"
  fi
  if [ -f "$file" ]; then
    p="$(cat "$file")"
    port_free "$p" || die "port $p, fixed for $name of this data directory ($DATA_DIR), is used by another program: stop it, or delete $file to let $name move to a free port (then restart the server)."
    echo "$p"; return
  fi
  p="$(pick_port "$preferred")"
  echo "$p" > "$file"
  echo "$p"
}

# ---------- Elasticsearch ----------
java_major() { "$1" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'; }
find_jdk() { # prints JAVA_HOME of the newest JDK >= $1
  local min="$1" best="" bestv=0 j v
  for j in /usr/lib/jvm/*/bin/java ${JAVA_HOME:+$JAVA_HOME/bin/java}; do
    [ -x "$j" ] || continue
    v="$(java_major "$j" || echo 0)"
    if [ "${v:-0}" -ge "$min" ] && [ "$v" -gt "$bestv" ]; then best="$(dirname "$(dirname "$(readlink -f "$j")")")"; bestv="$v"; fi
  done
  echo "$best"
}

es_version() {
  if [ -n "${SHELFMARK_ES_VERSION:-}" ]; then echo "$SHELFMARK_ES_VERSION"; return; fi
  if [ -n "$(find_jdk 21)" ]; then echo "9.5.0"; else echo "8.19.7"; fi
}

es_home_base() {
  # Elasticsearch runs as a non-root user, which must be able to reach its home and data
  # directories. When the clone sits under a private folder (root's home is mode 700),
  # keep the node outside the clone in a folder that user owns.
  if [ "$(id -u)" = "0" ] && ! runuser -u "$ES_USER" -- test -x "$DATA_DIR" 2>/dev/null; then
    local key; key="$(printf '%s' "$DATA_DIR" | sha256sum | cut -c1-12)"
    echo "/var/lib/shelfmark/$key"
  else
    echo "$DATA_DIR"
  fi
}

ensure_es_user() {
  [ "$(id -u)" = "0" ] || return 0
  id "$ES_USER" >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin "$ES_USER" || die "cannot create user $ES_USER (Elasticsearch refuses to run as root)"
}

# Fetches, unpacks and prepares Elasticsearch $1; sets ES_JDK, ES_HOME, ES_BASE.
es_install() {
  local version="$1"
  local major="${version%%.*}" jdk
  if [ "$major" -ge 9 ]; then jdk="$(find_jdk 21)"; else jdk="$(find_jdk 17)"; fi
  [ -n "$jdk" ] || die "no JDK found for Elasticsearch $version (needs JDK >= $([ "$major" -ge 9 ] && echo 21 || echo 17)). Install one (e.g. apt-get install openjdk-17-jdk-headless) or set ELASTICSEARCH_URL to use an existing cluster."
  if [ "$major" -lt 9 ] && [ -z "${SHELFMARK_ES_VERSION:-}" ]; then log "no JDK >= 21 found: falling back to Elasticsearch 8.19.7 on JDK 17"; fi
  command -v mvn >/dev/null || die "mvn (Maven) is needed to fetch Elasticsearch from Maven Central: apt-get install maven, or set ELASTICSEARCH_URL to use an existing cluster."
  local artifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$version:zip"
  local zip="$HOME/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$version/elasticsearch-$version.zip"
  if [ ! -f "$zip" ]; then
    log "fetching $artifact from Maven Central"
    mvn -q dependency:get -Dartifact="$artifact" -Dtransitive=false >&2 || die "could not fetch $artifact; set ELASTICSEARCH_URL to use an existing cluster"
  fi
  ensure_es_user
  local base; base="$(es_home_base)"
  [ "$base" = "$DATA_DIR" ] || log "the clone is not reachable by user $ES_USER; Elasticsearch lives in $base"
  local home="$base/elasticsearch-$version"
  mkdir -p "$base"
  if [ ! -x "$home/bin/elasticsearch" ]; then
    log "unpacking Elasticsearch $version into $home"
    local tmp; tmp="$(mktemp -d "$base/unpack.XXXX")"
    (cd "$tmp" && unzip -q "$zip") || die "unzip failed (apt-get install unzip)"
    rm -rf "$home"; mv "$tmp/elasticsearch-$version" "$home"; rm -rf "$tmp"
  fi
  ES_JDK="$jdk"; ES_HOME="$home"; ES_BASE="$base"
}

# Earlier versions handed the whole data directory to the ES user on every start (the pid
# file's folder, recursively): give back what is not the node's own, so kept clones, code
# trees, the secret and FerretDB's files are the invoking user's again.
reclaim_data_dir() {
  [ "$(id -u)" = "0" ] || return 0
  id "$ES_USER" >/dev/null 2>&1 || return 0
  local entry name
  [ "$(stat -c %U "$DATA_DIR")" = "$ES_USER" ] && chown "$(id -u)" "$DATA_DIR"
  rm -f "$DATA_DIR"/es-*.pid
  for entry in "$DATA_DIR"/* "$DATA_DIR"/.[!.]*; do
    [ -e "$entry" ] || continue
    name="$(basename "$entry")"
    case "$name" in elasticsearch-*|es-data-*|es-logs-*|es-snapshots|es-cluster) continue ;; esac
    if [ -n "$(find "$entry" -user "$ES_USER" -print -quit 2>/dev/null)" ]; then
      log "giving $entry back to $(id -un) (an earlier start handed it to $ES_USER)"
      chown -R "$(id -u)" "$entry"
    fi
  done
}

# Starts `$ES_HOME/bin/elasticsearch` as the ES user with config dir $1, heap $2, pid file $3,
# logs dir $4; the node's own folders (the rest of the arguments) are handed to the ES user.
es_start() {
  local conf="$1" heap="$2" espid="$3" logs="$4"
  shift 4
  # Only the node's own folders: the data directory also holds the server's secret, Git clones
  # and FerretDB's files, which must stay the invoking user's (libgit2 refuses a repository
  # another user owns). A base outside the clone (es_home_base) is the node's alone.
  if [ "$(id -u)" = "0" ]; then
    [ "$ES_BASE" = "$DATA_DIR" ] || chown "$ES_USER" "$ES_BASE"
    chown -R "$ES_USER" "$ES_HOME" "$conf" "$logs" "$(dirname "$espid")" "$@"
  fi
  rm -f "$espid"
  local envs=(env ES_JAVA_HOME="$ES_JDK" ES_JAVA_OPTS="-Xms$heap -Xmx$heap" ES_PATH_CONF="$conf")
  if [ "$(id -u)" = "0" ]; then
    runuser -u "$ES_USER" -- "${envs[@]}" "$ES_HOME/bin/elasticsearch" -d -p "$espid" >"$logs/stdout.log" 2>&1 9>&- || die "Elasticsearch failed to start; see $logs"
  else
    "${envs[@]}" "$ES_HOME/bin/elasticsearch" -d -p "$espid" >"$logs/stdout.log" 2>&1 9>&- || die "Elasticsearch failed to start; see $logs"
  fi
}

es_up() {
  local version; version="$(es_version)"
  local pidf="$RUN_DIR/es-$version.pid"
  if pid_alive "$pidf"; then
    log "elasticsearch $version already running (pid $(cat "$pidf"))"
    [ -f "$RUN_DIR/es.url" ] || cp "$RUN_DIR/es-$version.url" "$RUN_DIR/es.url"
    return 0
  fi
  es_install "$version"
  local jdk="$ES_JDK" home="$ES_HOME" base="$ES_BASE"
  local data="$base/es-data-$version" logs="$base/es-logs-$version" snapshots="$base/es-snapshots"
  mkdir -p "$data" "$logs" "$snapshots"
  local port tport
  port="$(fixed_port "es-$version" "${SHELFMARK_ES_PORT:-9200}" "$RUN_DIR/es-$version.url")"
  tport="$(fixed_port "es-$version-transport" $((port + 100)))"
  cat > "$home/config/elasticsearch.yml" <<YML
cluster.name: shelfmark
node.name: shelfmark-local
path.data: $data
path.logs: $logs
path.repo: $snapshots
network.host: 127.0.0.1
http.port: $port
transport.port: $tport
discovery.type: single-node
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.auto_create_index: false
YML
  # The pid file ES writes sits in its logs folder (its own), copied to $RUN_DIR once it answers.
  local heap="${SHELFMARK_ES_HEAP:-1g}" espid="$logs/es.pid"
  reclaim_data_dir
  log "starting Elasticsearch $version on 127.0.0.1:$port (JDK $jdk, heap $heap)"
  es_start "$home/config" "$heap" "$espid" "$logs" "$data" "$snapshots"
  local url="http://127.0.0.1:$port" i
  for i in $(seq 1 180); do
    if curl -fsS "$url/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1; then break; fi
    sleep 1
  done
  curl -fsS "$url/_cluster/health" >/dev/null 2>&1 || die "Elasticsearch did not become healthy in 180 s; see $logs"
  cp "$espid" "$pidf"
  echo "$url" > "$RUN_DIR/es-$version.url"
  # es.url is what the app uses by default; a second node of another version (CI's
  # compatibility run) does not replace it.
  if [ -z "${SHELFMARK_ES_VERSION:-}" ] || [ ! -f "$RUN_DIR/es.url" ]; then echo "$url" > "$RUN_DIR/es.url"; fi
  log "elasticsearch $version ready at $url"
}

es_down() { # [version]: only that node (a restart), else every node
  local f pattern="es-*.pid"
  [ -n "${1:-}" ] && pattern="es-$1.pid"
  for f in "$RUN_DIR"/$pattern; do
    [ -f "$f" ] || continue
    if pid_alive "$f"; then
      local pid; pid="$(cat "$f")"; log "stopping elasticsearch (pid $pid)"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f" "${f%.pid}.url"
  done
  [ -n "${1:-}" ] || rm -f "$RUN_DIR/es.url"
}

# shellcheck source=scripts/stores/services-cluster.sh
source "$ROOT/scripts/stores/services-cluster.sh"

# ---------- FerretDB ----------
ferret_bin() { echo "$CACHE_DIR/ferretdb-$FERRET_BUILD/ferretdb"; }

# FerretDB 1.24's SQLite backend finds a document by `_id` with `_ferretdb_sjson->'$._id' = ?`,
# while the unique index it creates on every collection is on `_ferretdb_sjson->"_id"`: SQLite
# cannot match the two expressions, so every find, update and delete by `_id` scans the whole
# collection (an upsert into 10,000 usage documents: 80 ms of FerretDB CPU; EXPLAIN says SCAN).
# Written as `->'_id'` (the same JSON path, SQLite's label form) the lookup uses the index, old
# databases' indexes included. The build fails if the line is not found as expected.
patch_ferret_id_lookup() {
  local file=internal/backends/sqlite/metadata/metadata.go
  grep -q "IDColumn = DefaultColumn + \"->'\$._id'\"" "$file" || return 1
  sed -i "s|IDColumn = DefaultColumn + \"->'\$._id'\"|IDColumn = DefaultColumn + \"->'_id'\"|" "$file"
  grep -q "IDColumn = DefaultColumn + \"->'_id'\"" "$file"
}

build_ferret() {
  local bin; bin="$(ferret_bin)"
  [ -x "$bin" ] && return 0
  command -v go >/dev/null || die "go is needed to build FerretDB $FERRET_VERSION (apt-get install golang, or set MONGODB_URI to use an existing MongoDB)"
  log "building FerretDB $FERRET_VERSION from its Go module, with its _id lookup on its index (about a minute, once)"
  local work; work="$(mktemp -d)"
  (
    cd "$work"
    go mod init shelfmark-ferretdb-build >/dev/null 2>&1
    local dir
    dir="$(go mod download -json "github.com/FerretDB/FerretDB@v$FERRET_VERSION" | awk -F'"' '/"Dir"/ {print $4}')"
    [ -n "$dir" ] || exit 1
    cp -r "$dir" src && chmod -R u+w src
    cd src
    echo "v$FERRET_VERSION" > build/version/version.txt
    patch_ferret_id_lookup || { echo "FerretDB's _id lookup is not where this build expects it" >&2; exit 1; }
    GOFLAGS=-mod=mod go build -o "$work/ferretdb" ./cmd/ferretdb
  ) >&2 || die "FerretDB build failed (see above); set MONGODB_URI to use an existing MongoDB instead"
  mkdir -p "$(dirname "$bin")"
  mv "$work/ferretdb" "$bin.tmp" && mv "$bin.tmp" "$bin"
  rm -rf "$work"
}

mongo_up() {
  local pidf="$RUN_DIR/ferretdb.pid"
  if pid_alive "$pidf"; then log "ferretdb already running (pid $(cat "$pidf"))"; return 0; fi
  build_ferret
  local port; port="$(fixed_port ferretdb "${SHELFMARK_MONGO_PORT:-27017}" "$RUN_DIR/mongo.url")"
  mkdir -p "$DATA_DIR/ferretdb" "$DATA_DIR/logs"
  log "starting FerretDB $FERRET_VERSION (SQLite) on 127.0.0.1:$port"
  nohup "$(ferret_bin)" --handler=sqlite --sqlite-url="file:$DATA_DIR/ferretdb/" \
    --listen-addr="127.0.0.1:$port" --telemetry=disable --log-level=warn \
    --debug-addr=- --state-dir="$DATA_DIR/ferretdb" \
    >"$DATA_DIR/logs/ferretdb.log" 2>&1 9>&- &
  echo $! > "$pidf"
  for _ in $(seq 1 60); do
    if ! port_free "$port"; then break; fi
    pid_alive "$pidf" || die "FerretDB exited; see $DATA_DIR/logs/ferretdb.log"
    sleep 0.5
  done
  port_free "$port" && die "FerretDB did not open port $port; see $DATA_DIR/logs/ferretdb.log"
  echo "mongodb://127.0.0.1:$port/" > "$RUN_DIR/mongo.url"
  log "ferretdb ready at mongodb://127.0.0.1:$port/"
}

mongo_down() {
  local pidf="$RUN_DIR/ferretdb.pid"
  if pid_alive "$pidf"; then
    local pid; pid="$(cat "$pidf")"; log "stopping ferretdb (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidf" "$RUN_DIR/mongo.url"
}

# ---------- Supervisor ----------
supervisor_up() {
  [ "${SHELFMARK_SUPERVISE:-1}" = 0 ] && return 0
  local pidf="$RUN_DIR/supervisor.pid"
  if pid_alive "$pidf"; then return 0; fi
  mkdir -p "$DATA_DIR/logs"
  nohup node "$ROOT/scripts/stores/supervise-stores.mjs" "$DATA_DIR" >>"$DATA_DIR/logs/supervisor.out" 2>&1 9>&- &
  echo $! > "$pidf"
  log "supervisor started (pid $!; log: $DATA_DIR/logs/supervisor.log)"
}

supervisor_down() {
  local pidf="$RUN_DIR/supervisor.pid"
  if pid_alive "$pidf"; then
    local pid; pid="$(cat "$pidf")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidf"
}

# A store the supervisor found dead or unresponsive: start it again on its port, unless
# `down` stopped it meanwhile (its pid file is gone).
restart_es() {
  local version; version="$(es_version)"
  [ -f "$RUN_DIR/es-$version.pid" ] || { log "elasticsearch $version is not meant to run; not restarting"; return 0; }
  local pid; pid="$(cat "$RUN_DIR/es-$version.pid")"
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$RUN_DIR/es-$version.pid"
  es_up
}

restart_mongo() {
  [ -f "$RUN_DIR/ferretdb.pid" ] || { log "ferretdb is not meant to run; not restarting"; return 0; }
  local pid; pid="$(cat "$RUN_DIR/ferretdb.pid")"
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$RUN_DIR/ferretdb.pid"
  mongo_up
}

status() {
  local f any=0
  for f in "$RUN_DIR"/es-*.pid; do
    [ -f "$f" ] || continue; any=1
    if pid_alive "$f"; then echo "elasticsearch: running (pid $(cat "$f")) at $(cat "${f%.pid}.url" 2>/dev/null)"; else echo "elasticsearch: stopped (stale pid file)"; fi
  done
  [ "$any" = 1 ] || echo "elasticsearch: stopped"
  if pid_alive "$RUN_DIR/ferretdb.pid"; then echo "ferretdb: running (pid $(cat "$RUN_DIR/ferretdb.pid")) at $(cat "$RUN_DIR/mongo.url" 2>/dev/null)"; else echo "ferretdb: stopped"; fi
  if pid_alive "$RUN_DIR/supervisor.pid"; then echo "supervisor: running (pid $(cat "$RUN_DIR/supervisor.pid"))"; else echo "supervisor: stopped"; fi
}

cmd="${1:-status}"; what="${2:-all}"
case "$cmd" in
  up)
    if [ "$what" = all ] || [ "$what" = mongo ]; then [ -n "${MONGODB_URI:-}" ] && log "MONGODB_URI is set; not starting FerretDB" || mongo_up; fi
    if [ "$what" = all ] || [ "$what" = es ]; then [ -n "${ELASTICSEARCH_URL:-}" ] && log "ELASTICSEARCH_URL is set; not starting Elasticsearch" || es_up; fi
    supervisor_up
    ;;
  down)
    # The supervisor first, so it does not start again what is being stopped.
    if [ "$what" = all ]; then supervisor_down; fi
    if [ "$what" = all ] || [ "$what" = es ]; then es_down; fi
    if [ "$what" = all ] || [ "$what" = mongo ]; then mongo_down; fi
    ;;
  restart)
    case "$what" in
      es) restart_es ;;
      mongo) restart_mongo ;;
      *) die "usage: services.sh restart es|mongo" ;;
    esac
    ;;
  status) status ;;
  cluster) cluster_cmd "${2:-status}" "${3:-}" ;;
  *) die "usage: services.sh up|down|restart|status [es|mongo] | cluster up|down|status|kill <n>|start <n>" ;;
esac
