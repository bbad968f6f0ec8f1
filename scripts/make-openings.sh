#!/bin/sh
# Regenerates testdata/openings-mlp.txt, the fixed openings of the strength
# workflow (scripts/strength.sh): 300 Base+MLP positions after 6 random legal
# plies (3 per side), drawn from seed 13 by the referee's own random openings
# (the same seed gives the same openings on every machine). Random placements
# this early cost neither side much, and each opening is played from both
# sides, so what imbalance remains cancels out.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/hivebridge
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/hivebridge
out=$(mktemp)
"$bin" match --white native --black native --tc depth=1 --gametype Base+MLP \
	--random-plies 6 --max-plies 6 --games 600 --seed 13 --out "$out" >/dev/null 2>&1
{
	echo "# Base+MLP openings, 6 random plies, seed 13: see scripts/make-openings.sh"
	grep 'white=A' "$out" | cut -f1
} >testdata/openings-mlp.txt
rm -f "$out" "$out.json"
