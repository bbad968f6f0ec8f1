#!/usr/bin/env bash
# archive-load.sh: what does the archive cost a busy daemon? Builds
# hivebridge from the working tree, then for each round and each archive
# (--db none, a SQLite file, a PostgreSQL server this script starts on a
# temporary directory) starts a fresh daemon, plays `hivebridge bench load`
# against it, and prints one line: the load's figures, the daemon's CPU, the
# commands that waited on the archive, and what was not archived. The
# archives run one after the other within a round, so that they share the
# machine's state; the machine's load average is printed with each line.
#
#   scripts/archive-load.sh [-s SESSIONS] [-d DURATION] [-r RAMP] [-t THINK] [-D DEPTH] [-n ROUNDS] [-a "none sqlite postgres"] [-T WINDOW] [-N NICE]
#
#   -s  sessions at once (default 10000)
#   -d  how long to play after the ramp (default 40s)
#   -r  the ramp over which the sessions start (default 10s)
#   -t  the mean think between a session's commands (default 2s); a short
#       think at depth 1 is a load of games that end quickly
#   -D  the depth of each bestmove (default 1)
#   -n  rounds (default 1)
#   -a  the archives, in order (default "none sqlite postgres")
#   -T  also print the latencies of each window this long (bench load --timeline)
#   -N  the nice value PostgreSQL runs at (default 10, that of the daemon's
#       own writer thread; 0 for the sessions' priority)
#
# PostgreSQL comes from Debian's postgresql package (.ci/setup installs it),
# fsync on, run as the postgres user when this script runs as root. A
# database on the daemon's machine should yield the cores to the sessions,
# as the daemon's own writer does: at the sessions' priority it doubled
# their p99 under quick games, at nice 10 it added 40 to 80% (2026-11-28). A
# nice value alone does not do it where the kernel groups processes by
# session (autogroup: PostgreSQL starts each backend in a session of its
# own, which then weighs as much as the daemon and its client together),
# so the script runs itself, and all it starts, in a CPU cgroup of its
# own, where each process weighs by its nice value. The header gives the
# nice value, followed by +autogroup where the script could not do so.
set -euo pipefail
sessions=10000 duration=40s ramp=10s think=2s depth=1 rounds=1 archives="none sqlite postgres" timeline=0 pgnice=10
while getopts s:d:r:t:D:n:a:T:N: opt; do
  case $opt in
    s) sessions=$OPTARG ;; d) duration=$OPTARG ;; r) ramp=$OPTARG ;; t) think=$OPTARG ;;
    D) depth=$OPTARG ;; n) rounds=$OPTARG ;; a) archives=$OPTARG ;; T) timeline=$OPTARG ;; N) pgnice=$OPTARG ;;
    *) sed -n '2,36p' "$0" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" -lt $((sessions + 1000)) ]; then
  echo "archive-load: open files limited to $(ulimit -n), too few for $sessions sessions" >&2
  exit 1
fi
work=$(mktemp -d /tmp/hivebridge-load.XXXXXX)
chmod 755 "$work"
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
daemon=""
cgroup=""
cleanup() {
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  [ -f "$work/pg/data/postmaster.pid" ] && as_pg "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$work"
  if [ -n "$cgroup" ]; then
    echo $$ >"$(dirname "$cgroup")/cgroup.procs" 2>/dev/null
    rmdir "$cgroup" 2>/dev/null || true
  fi
}
trap cleanup EXIT
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# own_cgroup moves this script into a CPU cgroup of its own (v1's cpu
# hierarchy, or v2's where the cpu controller is on), and reports whether
# it could.
own_cgroup() {
  local root
  for root in /sys/fs/cgroup/cpu /sys/fs/cgroup; do
    [ -w "$root/cgroup.procs" ] || continue
    [ "$root" = /sys/fs/cgroup ] && ! grep -qw cpu "$root/cgroup.subtree_control" 2>/dev/null && continue
    mkdir "$root/hivebridge-load-$$" 2>/dev/null || continue
    if echo $$ >"$root/hivebridge-load-$$/cgroup.procs" 2>/dev/null; then
      cgroup="$root/hivebridge-load-$$"
      return 0
    fi
    rmdir "$root/hivebridge-load-$$"
  done
  return 1
}
pgpriority=$pgnice
if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo 0)" = 1 ] && ! own_cgroup; then
  pgpriority="$pgnice+autogroup"
fi
go build -o "$work/hivebridge" ./cmd/hivebridge
# Ports below the ephemeral range, which 10,000 sessions' sockets fill.
port=$((10000 + RANDOM % 10000)) pgport=$((20000 + RANDOM % 10000))

# start_pg starts a PostgreSQL server of this script's own, once.
start_pg() {
  [ -f "$work/pg/data/postmaster.pid" ] && return
  [ -n "$pgbin" ] || { echo "archive-load: PostgreSQL is not installed (run .ci/setup)" >&2; exit 1; }
  mkdir -p "$work/pg"
  [ "$(id -u)" = 0 ] && chown postgres "$work/pg"
  as_pg "$pgbin/initdb" -D "$work/pg/data" -U postgres -A trust >/dev/null
  as_pg nice -n "$pgnice" "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-p $pgport -k $work/pg -c listen_addresses='' -c max_connections=100" start >/dev/null
}

pg_cpu() { # the CPU ticks of this script's PostgreSQL server's processes, those still running
  local pids
  pids=$(pgrep -f -- "-D $work/pg/data" 2>/dev/null; [ -f "$work/pg/data/postmaster.pid" ] && pgrep -P "$(head -1 "$work/pg/data/postmaster.pid")" 2>/dev/null)
  local total=0 p
  for p in $pids; do
    [ -r "/proc/$p/stat" ] && total=$((total + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
  done
  echo "$total"
}

metric() { # metric NAME: the sum of a metric's samples in the daemon's /metrics
  awk -v m="$1" '$1 == m || index($1, m"{") == 1 { s += $2 } END { printf "%g", s + 0 }' "$work/metrics"
}

run() { # run ROUND ARCHIVE
  local db
  case $2 in
    none) db=none ;;
    sqlite) rm -rf "$work"/games.db*; db="$work/games.db" ;;
    postgres)
      start_pg
      as_pg "$pgbin/dropdb" -h "$work/pg" -p "$pgport" -U postgres --if-exists hb >/dev/null
      as_pg "$pgbin/createdb" -h "$work/pg" -p "$pgport" -U postgres hb
      db="postgres://postgres@/hb?host=$work/pg&port=$pgport" ;;
    *) echo "archive-load: unknown archive $2" >&2; exit 2 ;;
  esac
  rm -rf "$work/journal"
  "$work/hivebridge" serve --http "127.0.0.1:$port" --max-sessions $((sessions * 2)) --db "$db" --archive-journal "$work/journal" >"$work/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  if ! kill -0 "$daemon" 2>/dev/null; then
    echo "archive-load: the daemon did not start:" >&2; cat "$work/daemon.log" >&2; exit 1
  fi
  local cpu0 pg0 out
  cpu0=$(awk '{ print $14 + $15 }' "/proc/$daemon/stat")
  pg0=$(pg_cpu)
  out=$("$work/hivebridge" bench load --url "ws://127.0.0.1:$port/uhp" --sessions "$sessions" \
    --duration "$duration" --ramp "$ramp" --think "$think" --depth "$depth" --timeline "$timeline")
  curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics"
  local cpu
  cpu=$(awk -v c0="$cpu0" -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15 - c0) / hz }' "/proc/$daemon/stat")
  local pgcpu
  pgcpu=$(awk -v a="$pg0" -v b="$(pg_cpu)" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz }')
  kill "$daemon"; wait "$daemon" || true; daemon=""
  printf 'round=%s db=%s load=%s postgres_cpu_s=%s daemon_cpu_s=%s gc_cycles=%s alloc_gb=%s waited=%s wait_s=%s journaled=%s not_archived=%s refused=%s\n  %s\n' \
    "$1" "$2" "$(cut -d' ' -f1 /proc/loadavg)" "$pgcpu" "$cpu" "$(metric go_gc_duration_seconds_count)" \
    "$(awk -v b="$(metric go_memstats_alloc_bytes_total)" 'BEGIN { printf "%.1f", b / 1e9 }')" \
    "$(metric hivebridge_archive_wait_seconds_count)" "$(metric hivebridge_archive_wait_seconds_sum)" \
    "$(metric hivebridge_archive_journaled_games_total)" \
    "$(metric hivebridge_archive_not_archived_total)" "$(metric hivebridge_archive_refused_writes_total)" \
    "$(echo "$out" | grep -v -e '^window' -e '^command ' | tr '\n' ' ')"
  echo "$out" | grep -e '^command ' -e '^window' | sed 's/^/  /' || true
}

echo "# $(git rev-parse --short HEAD)$(git diff --quiet || echo '+dirty') sessions=$sessions duration=$duration ramp=$ramp think=$think depth=$depth postgres_nice=$pgpriority $(nproc) cores"
for r in $(seq "$rounds"); do
  for a in $archives; do run "$r" "$a"; done
done
