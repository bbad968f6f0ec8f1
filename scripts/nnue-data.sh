#!/bin/sh
# nnue-data.sh: self-play games and their labelled positions, the training
# data of the learned evaluation (issue 28). Plays N games of the native
# searcher against itself through `hivebridge match`, in chunks of CHUNK
# games, each chunk from the 300 openings of testdata/openings-mlp.txt
# extended by two random plies (`hivebridge train openings`, seed = chunk
# number + 1), one side at depth 3 and the other at depth 4 (each colour in
# turn: a side against itself at one depth would play the same game from
# both colours of an opening), and labels each chunk's quiet positions with
# `hivebridge train data` (see docs/strength.md, "Learned evaluation: data").
# The games are played with the pinned build's default evaluation (the
# learned network from branch nnuedefault on, the linear one before); the
# labels are always linear searches.
#
#   scripts/nnue-data.sh [-n GAMES] [-d DIR] [-r COMMIT] [-l DEPTH] [-j WORKERS] [-k CHUNK]
#
#   -n  games in all (default 30000); a later run may ask for more
#   -d  the data directory (default ~/.cache/hivebridge/nnue), outside the
#       repository; it holds, per chunk NNNN, openings-NNNN.txt,
#       games-NNNN.tsv (match --out, with .json), data-NNNN.hbd (the
#       labelled positions) and their logs, and progress.log; the games
#       are also kept in an archive of its own, archive/hivebridge/games.db
#       (the pinned build may be older than the user's archive's schema)
#   -r  build hivebridge at this commit (default HEAD); a directory keeps
#       the commit of its first run, and later runs build that one
#   -l  the depth of the label search (default 4)
#   -j  labelling workers (default 1; the games are played one at a time)
#   -k  games per chunk (default 600: each opening from both sides)
#
# Resumable at any point: run the same command again (after a kill, a
# reboot, or with a larger -n) and it goes on where it stopped, losing and
# repeating nothing (match --resume, train data's resume). Depth limits
# only: a run paused by SIGSTOP loses no game on time. Run it under nice
# on a shared machine: nice -n 19 scripts/nnue-data.sh ...
set -eu
games=30000
dir=${HOME}/.cache/hivebridge/nnue
commit=
depth=4
workers=1
chunk=600
while getopts n:d:r:l:j:k: opt; do
	case $opt in
	n) games=$OPTARG ;;
	d) dir=$OPTARG ;;
	r) commit=$OPTARG ;;
	l) depth=$OPTARG ;;
	j) workers=$OPTARG ;;
	k) chunk=$OPTARG ;;
	*) sed -n '2,34p' "$0" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/bin"
dir=$(cd "$dir" && pwd)

# The build and the chunking are the directory's: kept from its first run.
if [ -f "$dir/commit" ]; then
	pinned=$(cat "$dir/commit")
	if [ -n "$commit" ] && [ "$(git -C "$root" rev-parse "$commit")" != "$pinned" ]; then
		echo "$dir was begun with the build of $pinned; use another directory for $commit" >&2
		exit 1
	fi
	commit=$pinned
else
	commit=$(git -C "$root" rev-parse "${commit:-HEAD}")
	echo "$commit" >"$dir/commit"
fi
if [ -f "$dir/chunk" ]; then
	if [ "$(cat "$dir/chunk")" != "$chunk" ]; then
		echo "$dir is in chunks of $(cat "$dir/chunk") games, not $chunk" >&2
		exit 1
	fi
else
	echo "$chunk" >"$dir/chunk"
fi
bin=$dir/bin/hivebridge-$commit
if [ ! -x "$bin" ]; then
	src=$(mktemp -d)
	git -C "$root" archive "$commit" | tar -x -C "$src"
	(cd "$src" && go build -o "$bin.tmp" ./cmd/hivebridge)
	rm -rf "$src"
	mv "$bin.tmp" "$bin"
fi
if [ ! -f "$dir/openings-mlp.txt" ]; then
	git -C "$root" show "$commit:testdata/openings-mlp.txt" >"$dir/openings-mlp.txt.tmp"
	mv "$dir/openings-mlp.txt.tmp" "$dir/openings-mlp.txt"
fi

chunks=$(((games + chunk - 1) / chunk))
k=0
while [ "$k" -lt "$chunks" ]; do
	name=$(printf %04d "$k")
	n=$((games - k * chunk))
	[ "$n" -gt "$chunk" ] && n=$chunk
	if [ "$(cat "$dir/data-$name.done" 2>/dev/null)" != "$n" ]; then
		openings=$dir/openings-$name.txt
		[ -f "$openings" ] || "$bin" train openings --plies 2 --seed $((k + 1)) --out "$openings" "$dir/openings-mlp.txt"
		out=$dir/games-$name.tsv
		set -- --white native --black native --white-tc depth=3 --black-tc depth=4 \
			--openings "$openings" --games "$n" --max-plies 400 --out "$out"
		[ -f "$out.json" ] && set -- "$@" --resume
		XDG_DATA_HOME=$dir/archive "$bin" match "$@" >>"$dir/games-$name.log" 2>&1
		"$bin" train data --depth "$depth" --workers "$workers" --progress 100 \
			--note "hivebridge $commit, $(basename "$out"), label depth $depth" \
			--out "$dir/data-$name.hbd" "$out" >>"$dir/data-$name.log" 2>&1
		echo "$n" >"$dir/data-$name.done"
		echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) chunk $name: $("$bin" train info --total "$dir"/data-*.hbd)" | tee -a "$dir/progress.log"
	fi
	k=$((k + 1))
done
