#!/usr/bin/env bash
# npm run bench: runs server/bench/run.ts against PostgreSQL (with DATABASE_URL set, that server is used), then
# server/bench/contention.ts (sign-in alone, while a slow export and a trickled upload run, and while a full export, a
# residual import and the slowest dashboard call run) on PostgreSQL at each scale and on PGlite.
# Otherwise a local cluster in data/bench-pg is created once (and the demo and large data seeded once, each in its
# own database) and reused by later runs; it is started for the run and stopped after it.
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_ONLY=ach,partners runs only those sections of run.ts; the contention bench runs when BENCH_ONLY is
# unset or names "contention".
contention() { [ -z "${BENCH_ONLY:-}" ] || [[ ",${BENCH_ONLY}," == *,contention,* ]]; }

if [ -n "${DATABASE_URL:-}" ]; then
  npx tsx server/bench/run.ts "$@"
  contention || exit 0
  npx tsx server/bench/contention.ts postgres
  exec npx tsx server/bench/contention.ts pglite
fi

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do [ -x "$candidate/initdb" ] && bindir="$candidate"; done
[ -n "$bindir" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)." >&2; exit 1; }

dir="$PWD/data/bench-pg"
port="${BENCH_PG_PORT:-54329}"
as_pg=()
mkdir -p "$dir"
if [ "$(id -u)" = "0" ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
if [ ! -f "$dir/data/PG_VERSION" ]; then
  "${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U app --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
fi
stop() { "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; }
trap stop EXIT
# A throwaway cluster with no replica and no archive: wal_level=minimal lets the seed write the bulk tables it
# truncates in its transaction without the WAL (server/src/db/seed/bulk.ts, freshStorage), as PostgreSQL's
# "Populating a Database" advises for a bulk load. Every other write still goes through the WAL (minimal keeps
# what crash recovery needs).
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c shared_buffers=1GB -c work_mem=32MB -c maintenance_work_mem=512MB -c max_wal_size=4GB -c synchronous_commit=off -c wal_level=minimal -c max_wal_senders=0" \
  start >/dev/null
database() {
  "${as_pg[@]}" "$bindir/psql" -h 127.0.0.1 -p "$port" -U app -d postgres -tAc "select 1 from pg_database where datname = '$1'" | grep -q 1 \
    || "${as_pg[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U app "$1"
}
# Each figure at several scales: the demo scale (its own database, seeded once in about a minute), the large one
# and, on demand, xl (about three times large, in paydesk_bench_xl, seeded once when empty: 14 minutes on this
# 2-core machine otherwise idle, 19 GB),
# then side by side with the ratios (server/bench/compare.ts). BENCH_SCALES=large runs only the large scale;
# BENCH_SCALES=demo,large,xl all three.
scales="${BENCH_SCALES:-demo,large}"
ran=()
run_scale() { # scale database
  database "$2"
  rm -f "$dir/results-$1.json"
  DATABASE_URL="postgres://app@127.0.0.1:$port/$2" BENCH_SCALE="$1" \
    BENCH_RESULTS="$dir/results-$1.json" npx tsx server/bench/run.ts "${@:3}"
  ran+=("$dir/results-$1.json")
}
if [[ ",$scales," == *,demo,* ]]; then run_scale demo paydesk_bench_demo "$@"; fi
run_scale large paydesk_bench "$@"
if [[ ",$scales," == *,xl,* ]]; then run_scale xl paydesk_bench_xl "$@"; fi
if [ "${#ran[@]}" -gt 1 ]; then npx tsx server/bench/compare.ts "${ran[@]}"; fi
contention || exit 0
# Sign-in alone and during slow and heavy work, at each scale run on PostgreSQL, and on PGlite (the demo scale, in a
# fresh folder: the embedded database is for the demo and small installations).
if [[ ",$scales," == *,demo,* ]]; then
  DATABASE_URL="postgres://app@127.0.0.1:$port/paydesk_bench_demo" npx tsx server/bench/contention.ts postgres
fi
DATABASE_URL="postgres://app@127.0.0.1:$port/paydesk_bench" npx tsx server/bench/contention.ts postgres
if [[ ",$scales," == *,xl,* ]]; then
  DATABASE_URL="postgres://app@127.0.0.1:$port/paydesk_bench_xl" npx tsx server/bench/contention.ts postgres
fi
npx tsx server/bench/contention.ts pglite
