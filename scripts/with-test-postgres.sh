#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: starts one in a temporary folder on a free port,
# exports TEST_DATABASE_URL (and DATABASE_URL when asked with --as-database-url), runs the command, and
# stops and removes the cluster however the command ends. The API tests create a database per test file in it.
set -euo pipefail

export_as_database_url=false
if [ "${1:-}" = "--as-database-url" ]; then export_as_database_url=true; shift; fi

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do [ -x "$candidate/initdb" ] && bindir="$candidate"; done
if [ -z "$bindir" ]; then
  echo "PostgreSQL server binaries not found (install the Debian package postgresql)." >&2
  exit 1
fi

dir=$(mktemp -d /tmp/paydesk-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
as_pg=()
if [ "$(id -u)" = "0" ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi

cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U app --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# The cluster keeps a time zone far from UTC (its day differs from the UTC day for 13 hours of each day): PayDesk's
# days are UTC days, and a statement that took its day from the server's zone would fail here.
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c timezone=Pacific/Auckland" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

export TEST_DATABASE_URL="postgres://app@127.0.0.1:$port/postgres"
if $export_as_database_url; then
  "${as_pg[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U app paydesk
  export DATABASE_URL="postgres://app@127.0.0.1:$port/paydesk"
fi
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $port for: $*"
"$@"
