# A local three-node Elasticsearch cluster (sourced by scripts/stores/services.sh; `services.sh cluster ...`):
# the same integ-test zip as the single node, three nodes on loopback with their own config,
# data and log folders under <data>/es-cluster/node-<n>, master-eligible and data nodes all.
# Not supervised: it is for trying shards and replicas, and for killing a node on purpose.
#
#   services.sh cluster up|down|status          all three nodes
#   services.sh cluster kill <n>|start <n>      one node: kill -9 (a crash), or start it again (it rejoins)
#
#   SHELFMARK_CLUSTER_PORTS  HTTP ports of the three nodes (default 9261,9262,9263); transport ports are each + 100
#   SHELFMARK_CLUSTER_HEAP   heap per node (default 512m)
# The nodes' URLs land in <data>/run/cluster.url, comma-separated: ELASTICSEARCH_URL="$(cat .data/run/cluster.url)".

cluster_ports() { echo "${SHELFMARK_CLUSTER_PORTS:-9261,9262,9263}" | tr ',' ' '; }

cluster_dir() { echo "$ES_BASE/es-cluster/node-$1"; }

cluster_node_up() { # <n> <http port> <all transport ports, comma-separated> <all node names, comma-separated>
  local n="$1" port="$2" seeds="$3" names="$4"
  local pidf="$RUN_DIR/cluster-$n.pid"
  if pid_alive "$pidf"; then log "cluster node $n already running (pid $(cat "$pidf"))"; return 0; fi
  port_free "$port" || die "port $port (cluster node $n) is used by another program: choose others with SHELFMARK_CLUSTER_PORTS"
  local dir; dir="$(cluster_dir "$n")"
  mkdir -p "$dir/data" "$dir/logs"
  if [ ! -f "$dir/config/jvm.options" ]; then rm -rf "$dir/config"; cp -r "$ES_HOME/config" "$dir/config"; fi
  # The cluster bootstraps once, from empty data folders; a node that has joined never names the initial masters again.
  local bootstrap=""
  [ -d "$dir/data/_state" ] || bootstrap="cluster.initial_master_nodes: [$names]"
  cat > "$dir/config/elasticsearch.yml" <<YML
cluster.name: shelfmark-cluster
node.name: shelfmark-node-$n
path.data: $dir/data
path.logs: $dir/logs
network.host: 127.0.0.1
http.port: $port
transport.port: $((port + 100))
discovery.seed_hosts: [$seeds]
$bootstrap
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.auto_create_index: false
YML
  local heap="${SHELFMARK_CLUSTER_HEAP:-512m}"
  log "starting cluster node $n on 127.0.0.1:$port (transport $((port + 100)), heap $heap)"
  es_start "$dir/config" "$heap" "$dir/es.pid" "$dir/logs" "$dir"
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/_cluster/health?timeout=1s" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/_cluster/health?timeout=1s" >/dev/null 2>&1 || die "cluster node $n did not answer in 120 s; see $dir/logs"
  cp "$dir/es.pid" "$pidf"
}

cluster_up() {
  local version; version="$(es_version)"
  es_install "$version"
  local ports=() seeds="" names="" n=0 p
  for p in $(cluster_ports); do ports+=("$p"); done
  [ "${#ports[@]}" -ge 2 ] || die "SHELFMARK_CLUSTER_PORTS must name at least two ports"
  for p in "${ports[@]}"; do
    n=$((n + 1))
    seeds="$seeds${seeds:+, }\"127.0.0.1:$((p + 100))\""
    names="$names${names:+, }\"shelfmark-node-$n\""
  done
  n=0
  # Started together: the first nodes wait for the others to elect a master.
  for p in "${ports[@]}"; do
    n=$((n + 1))
    ( cluster_node_up "$n" "$p" "$seeds" "$names" ) &
  done
  wait
  local urls="" first="${ports[0]}"
  for p in "${ports[@]}"; do urls="$urls${urls:+,}http://127.0.0.1:$p"; done
  curl -fsS "http://127.0.0.1:$first/_cluster/health?wait_for_nodes=${#ports[@]}&timeout=120s" >/dev/null || die "the cluster did not form (see $(cluster_dir 1)/logs)"
  echo "$urls" > "$RUN_DIR/cluster.url"
  printf '%s %s\n' "$seeds" "$names" > "$RUN_DIR/cluster.seeds"
  log "cluster of ${#ports[@]} nodes ready: ELASTICSEARCH_URL=$urls"
}

cluster_node_start() { # <n>: a node killed or stopped joins again
  local n="$1" version; version="$(es_version)"
  es_install "$version"
  [ -f "$RUN_DIR/cluster.seeds" ] || die "no cluster was started here: services.sh cluster up"
  local seeds names p port="" i=0
  seeds="$(sed -E 's/^(.*") ("shelfmark-node.*)$/\1/' "$RUN_DIR/cluster.seeds")"
  names="$(sed -E 's/^(.*") ("shelfmark-node.*)$/\2/' "$RUN_DIR/cluster.seeds")"
  for p in $(cluster_ports); do i=$((i + 1)); [ "$i" = "$n" ] && port="$p"; done
  [ -n "$port" ] || die "there is no cluster node $n"
  cluster_node_up "$n" "$port" "$seeds" "$names"
}

cluster_node_kill() { # <n>: kill -9, as a crash would
  local pidf="$RUN_DIR/cluster-$1.pid"
  pid_alive "$pidf" || die "cluster node $1 is not running"
  log "killing cluster node $1 (pid $(cat "$pidf")) with SIGKILL"
  kill -9 "$(cat "$pidf")"
  rm -f "$pidf"
}

cluster_down() {
  local f
  for f in "$RUN_DIR"/cluster-*.pid; do
    [ -f "$f" ] || continue
    if pid_alive "$f"; then
      local pid; pid="$(cat "$f")"; log "stopping cluster node (pid $pid)"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  rm -f "$RUN_DIR/cluster.url"
}

cluster_status() {
  local url; url="$(cut -d, -f1 "$RUN_DIR/cluster.url" 2>/dev/null || true)"
  local f
  for f in "$RUN_DIR"/cluster-*.pid; do
    [ -f "$f" ] || continue
    if pid_alive "$f"; then echo "$(basename "${f%.pid}"): running (pid $(cat "$f"))"; else echo "$(basename "${f%.pid}"): stopped"; fi
  done
  if [ -n "$url" ]; then
    for u in $(tr ',' ' ' < "$RUN_DIR/cluster.url"); do
      curl -fsS "$u/_cluster/health?filter_path=status,number_of_nodes,unassigned_shards" 2>/dev/null && echo " ($u)" && break
    done
  else
    echo "cluster: not started"
  fi
}

cluster_cmd() {
  case "${1:-status}" in
    up) cluster_up ;;
    down) cluster_down ;;
    status) cluster_status ;;
    kill) cluster_node_kill "${2:?usage: services.sh cluster kill <n>}" ;;
    start) cluster_node_start "${2:?usage: services.sh cluster start <n>}" ;;
    *) die "usage: services.sh cluster up|down|status|kill <n>|start <n>" ;;
  esac
}
