#!/usr/bin/env bash
# Provision what the test suite needs on a Debian machine (CI, or a contributor's): Chromium for
# the end-to-end tests, PostgreSQL with trust auth on 127.0.0.1 and a `test` database, and Redis
# on 127.0.0.1:6379. Installs from Debian's packages what is missing, starts what is not running,
# and fails loudly (non-zero exit, one line saying what) when something does not come up.
# Safe to run again: every step checks first.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PGPORT="${PGPORT:-5432}"        # overridable to try the script on a scratch cluster
CLUSTER="${PG_CLUSTER:-main}"
say() { printf '[provision] %s\n' "$*"; }
die() { printf '[provision] FAILED: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The end-to-end tests run in Chromium's headless shell (same release, no browser UI): a quarter less CPU per test.
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v pg_ctlcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql postgresql-contrib)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  as_root apt-get update -qq || die "apt-get update failed"
  as_root apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi

# PostgreSQL ------------------------------------------------------------------------------
pg_ok() { psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -tAc 'select 1' >/dev/null 2>&1; }
if ! pg_ok; then
  ver="$(ls /usr/lib/postgresql | sort -V | tail -1)"
  [ -n "$ver" ] || die "no PostgreSQL server version under /usr/lib/postgresql"
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$ver $CLUSTER"; then
    say "creating PostgreSQL $ver cluster $CLUSTER"
    as_root pg_createcluster "$ver" "$CLUSTER" --port "$PGPORT" >/dev/null || die "pg_createcluster $ver $CLUSTER failed"
  fi
  hba="/etc/postgresql/$ver/$CLUSTER/pg_hba.conf"
  [ -f "$hba" ] || die "$hba not found"
  # Trust on the loopback (tests connect as postgres without a password), ahead of other rules.
  if ! grep -Eq '^host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    say "setting trust auth for 127.0.0.1 in $hba"
    as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    as_root sed -i '1i host all all ::1/128 trust' "$hba"
  fi
  if pg_lsclusters -h | awk -v v="$ver" -v c="$CLUSTER" '$1==v && $2==c {print $4}' | grep -q online; then
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" "$CLUSTER" reload || die "reloading PostgreSQL failed"
  else
    say "starting PostgreSQL $ver"
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" "$CLUSTER" start || die "PostgreSQL $ver did not start (see /var/log/postgresql/postgresql-$ver-$CLUSTER.log)"
  fi
  for _ in $(seq 1 30); do pg_ok && break; sleep 1; done
  pg_ok || die "PostgreSQL does not answer on 127.0.0.1:$PGPORT with trust auth"
fi
if [ "$(psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -tAc "select 1 from pg_database where datname='test'")" != 1 ]; then
  say "creating database test"
  psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -qc 'create database test' || die "creating database test failed"
fi
psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d test -tAc 'select 1' >/dev/null || die "database test is not reachable"
say "PostgreSQL ready on 127.0.0.1:$PGPORT (database test)"

# Redis -------------------------------------------------------------------------------------
redis_ok() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }
if ! redis_ok; then
  say "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || die "redis-server did not start"
  for _ in $(seq 1 20); do redis_ok && break; sleep 0.5; done
  redis_ok || die "Redis does not answer on 127.0.0.1:6379"
fi
say "Redis ready on 127.0.0.1:6379"
say "Chromium: $(/usr/bin/chromium --version 2>/dev/null || echo 'present'); headless shell: $(/usr/bin/chromium-headless-shell --version 2>/dev/null || echo 'present')"
