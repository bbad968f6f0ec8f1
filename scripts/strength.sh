#!/bin/sh
# strength.sh: how much stronger is the native searcher of the working tree
# than the one of a given commit? Builds hivebridge at BASE (default: the
# commit where issue 13 started) and at the working tree, plays them against
# each other with `hivebridge match` over the fixed openings of
# testdata/openings-mlp.txt (each from both sides), both engines on one
# thread behind the Hub front end (`hivebridge hub`: Hub tells an engine its
# time to the millisecond, where UHP tells whole seconds only, which the
# referee refuses for a movetime under a second), and prints the match
# table: A is the working tree, so its Elo difference is the gain.
#
#   scripts/strength.sh [-a NEW] [-b BASE] [-t TC] [-g GAMES] [-c CONCURRENCY] [-s ELO0,ELO1] [-o OUT]
#                       [-A NAME=VALUE]... [-B NAME=VALUE]...
#
#   -a  build A at this commit instead of the working tree (to measure one
#       step against the one before it while the tree moves on)
#   -b  the baseline commit (default 79898a42707e76b8105acc0dbc554123ee9d0f5e)
#   -t  the time control of both engines (default movetime=0.1); depth=N
#       screens a change faster, and without the clock's noise
#   -g  the number of games (default 400)
#   -c  games at once (default 1: on a shared machine, more games at once
#       starve time-based searches)
#   -s  stop early by an SPRT, e.g. 0,10 (default: play all the games)
#   -o  keep every game in OUT (a `match --out` file) and its summary OUT.json
#   -A  set an engine option of A (repeatable), e.g. -A Eval=nnue -B
#       Eval=linear with -b at A's own commit: the learned evaluation (the
#       native engine's default since branch nnuedefault; linear before)
#       against the linear one
#   -B  set an engine option of B (repeatable)
#
# Matches run under nice -n 5: a lower priority than that starves the
# engines' clocks. Record each result in docs/strength.md.
set -eu
base=79898a42707e76b8105acc0dbc554123ee9d0f5e
tc=movetime=0.1
games=400
conc=1
sprt=
out=
new=
aopts=
bopts=
while getopts a:b:t:g:c:s:o:A:B: opt; do
	case $opt in
	a) new=$OPTARG ;;
	b) base=$OPTARG ;;
	t) tc=$OPTARG ;;
	g) games=$OPTARG ;;
	c) conc=$OPTARG ;;
	s) sprt=$OPTARG ;;
	o) out=$OPTARG ;;
	A) aopts="$aopts $OPTARG" ;;
	B) bopts="$bopts $OPTARG" ;;
	*) sed -n '2,32p' "$0" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base"
git -C "$root" archive "$base" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/hb-base" ./cmd/hivebridge)
if [ -n "$new" ]; then
	mkdir "$tmp/new"
	git -C "$root" archive "$new" | tar -x -C "$tmp/new"
	(cd "$tmp/new" && go build -o "$tmp/hb-new" ./cmd/hivebridge)
	what="$new"
else
	(cd "$root" && go build -o "$tmp/hb-new" ./cmd/hivebridge)
	what="working tree ($(git -C "$root" describe --always --dirty))"
fi
echo "A: $what${aopts:+ (options$aopts)}, B: $base${bopts:+ (options$bopts)}, tc $tc, concurrency $conc, load $(cut -d' ' -f1-3 /proc/loadavg)"
set -- --white "hub:$tmp/hb-new hub" --black "hub:$tmp/hb-base hub" \
	--white-option Threads=1 --black-option Threads=1 \
	--openings "$root/testdata/openings-mlp.txt" --tc "$tc" --games "$games" --concurrency "$conc"
[ -n "$sprt" ] && set -- "$@" --sprt "$sprt"
[ -n "$out" ] && set -- "$@" --out "$out"
for o in $aopts; do set -- "$@" --white-option "$o"; done
for o in $bopts; do set -- "$@" --black-option "$o"; done
# The games are kept in an archive of the run's own (the --out file is the
# record): a build older than the user's archive would refuse its schema,
# and a measurement has no business in it.
XDG_DATA_HOME="$tmp/data" nice -n 5 "$tmp/hb-new" match "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
