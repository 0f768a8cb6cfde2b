#!/usr/bin/env bash
# End-to-end live input: real X key events -> SFML -> key latch -> pilot::Pilot
# -> the recorded script and CSV -> `aerolin simulate` replay.
#
# Starts aerolin-fly interactively (real time, no script) on the current
# DISPLAY (CTest wraps this in `xvfb-run -a`), holds numpad 8 with xdotool,
# saves a snapshot (S), resizes the window and snapshots again, quits (Esc),
# then checks:
#   - exit code 0;
#   - the recorded script has one line for key 8 lasting about as long as the
#     key was held (measured here);
#   - the CSV's elevator is 0 before that line, rises by exactly 0.01 per
#     0.1 s slice held and halves every slice after release;
#   - the S snapshots (PNG at the window's size, CSV + script copies) exist,
#     the CSV copy is a prefix of the final log;
#   - the replay command the app prints reproduces the CSV byte for byte.
#
# usage: live_input_check.sh FLY AEROLIN AIRCRAFT WORK
# Exit 77 (skipped) without xdotool.
set -euo pipefail

fly=$(realpath "$1") aerolin=$(realpath "$2") aircraft=$(realpath "$3") work=$4
command -v xdotool >/dev/null || { echo "xdotool not found: skipped"; exit 77; }
[ -n "${DISPLAY:-}" ] || { echo "no DISPLAY (run under xvfb-run -a)"; exit 1; }

# Slack between the hold measured here and the one the window records [s]:
# the recorded hold is whole 0.1 s slices, counted from the frame that polled
# the press to the one that polled the release; under `ctest -j2` a frame
# can be late by a few hundred ms on this 2-core machine.
readonly kHoldSlack=0.45
readonly kHold=1.0  # how long numpad 8 is held [s]

rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }

# A hung window must not hang CTest: the app gets 120 s at most.
timeout 120 "$fly" "$aircraft" --log-dir "$work/log" --log-name live --width 1000 --height 700 \
  > fly.out 2> fly.err &
fly_pid=$!
trap 'kill "$fly_pid" 2>/dev/null || true' EXIT

# Wait for the window (title "aerolin-fly") and for the first log flush, so
# the slice loop is running before any key is sent.
wid=
for _ in $(seq 600); do
  kill -0 "$fly_pid" 2>/dev/null || fail "aerolin-fly ended early: $(cat fly.out fly.err)"
  if [ -z "$wid" ]; then
    wids=$(xdotool search --onlyvisible --name '^aerolin-fly$' 2>/dev/null) && wid=${wids%%$'\n'*}
  fi
  [ -n "$wid" ] && [ -f log/live-1.csv ] && [ "$(wc -l < log/live-1.csv)" -ge 6 ] && break
  sleep 0.1
done
[ -n "$wid" ] || fail "no visible aerolin-fly window within 60 s"
[ "$(wc -l < log/live-1.csv)" -ge 6 ] || fail "the flight log did not grow within 60 s"

# Without a window manager there is no _NET_ACTIVE_WINDOW, so `windowactivate`
# fails; XSetInputFocus (`windowfocus`) works and XTest events then go to the
# focused window. The pointer is moved in too, for servers that fall back to
# PointerRoot focus.
xdotool windowfocus --sync "$wid"
xdotool mousemove --window "$wid" 500 350
sleep 0.3
# N: the nonlinear aircraft flies beside for the rest of the flight; the log
# (the linear flight) and its replay stay as they are (checked below).
xdotool key n
sleep 0.3

xdotool keydown KP_8
t_down=$(now)
sleep "$kHold"
t_up=$(now)
xdotool keyup KP_8
t_up_done=$(now)
sleep 1.2  # let the elevator decay in the log
xdotool key s
sleep 0.5
xdotool windowsize --sync "$wid" 800 600
sleep 0.5
xdotool key s
sleep 0.5
xdotool key Escape

set +e
wait "$fly_pid"
rc=$?
set -e
trap - EXIT
cat fly.out
[ "$rc" -eq 0 ] || fail "aerolin-fly exited $rc: $(cat fly.err)"
grep -q '^nonlinear aircraft beside (N): on, from the linear state at t = ' fly.out ||
  fail "N did not switch the nonlinear aircraft on"

# --- the recorded script ------------------------------------------------------
script=log/live-1.script.txt
[ -f "$script" ] || fail "no $script"
mapfile -t events < <(grep -v '^#' "$script" | grep -v '^[[:space:]]*$')
[ "${#events[@]}" -eq 1 ] || fail "expected one key line in $script, got: ${events[*]:-none}"
read -r t_start t_end key <<< "${events[0]}"
[ "$key" = 8 ] || fail "recorded key '$key', expected 8: ${events[0]}"
held=$(awk -v a="$t_down" -v b="$t_up" -v c="$t_up_done" 'BEGIN { printf "%.3f %.3f", b - a, c - a }')
read -r held_min held_max <<< "$held"
awk -v s="$t_start" -v e="$t_end" -v lo="$held_min" -v hi="$held_max" -v slack="$kHoldSlack" '
  BEGIN { d = e - s; exit !(d >= lo - slack && d <= hi + slack) }' ||
  fail "key 8 recorded for $t_start..$t_end s, but held $held_min..$held_max s (slack $kHoldSlack s)"
echo "key 8 held $held_min..$held_max s (measured), recorded $t_start..$t_end s"

# --- the elevator column of the log -------------------------------------------
csv=log/live-1.csv
col=$(head -1 "$csv" | tr ',' '\n' | grep -nx elevator | cut -d: -f1)
[ -n "$col" ] || fail "no elevator column in $csv"
# Slice k (time k*dt) shows the control after slice k-1: 0 up to t_start,
# 0.01 per slice held up to t_end, then the peak halved every slice.
awk -F, -v c="$col" -v s="$t_start" -v e="$t_end" '
  function abs(x) { return x < 0 ? -x : x }
  NR == 1 { next }
  {
    t = $1; v = $c; rows++
    if (t <= s + 1e-9) want = 0
    else if (t <= e + 1e-9) want = 0.01 * int((t - s) / 0.1 + 0.5)
    else { want = 0.01 * int((e - s) / 0.1 + 0.5) * 0.5 ^ int((t - e) / 0.1 + 0.5); after++ }
    if (abs(v - want) > 1e-9) { printf "t = %s: elevator %s, expected %.12g\n", t, v, want; bad++ }
    if (v > peak) peak = v
  }
  END {
    printf "elevator peak %.4f rad over %d rows, %d after release\n", peak, rows, after
    if (after < 5) { print "fewer than 5 rows after the release"; bad++ }
    exit bad > 0
  }' "$csv" || fail "elevator column of $csv does not follow key 8 (see above)"

# --- the S snapshots --------------------------------------------------------------
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*2^24 + $2*2^16 + $3*2^8 + $4 "x" $5*2^24 + $6*2^16 + $7*2^8 + $8 }'; }
mapfile -t shots < <(ls log/aerolin-fly-*.png 2>/dev/null | sort -V)
[ "${#shots[@]}" -eq 2 ] || fail "expected 2 snapshot PNGs in log/, got: ${shots[*]:-none}"
for i in 0 1; do
  stem=${shots[$i]%.png}
  [ "$(head -c 8 "${shots[$i]}" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] ||
    fail "${shots[$i]} is not a PNG"
  [ -s "$stem.csv" ] && [ -s "$stem.script.txt" ] || fail "no CSV/script copy next to ${shots[$i]}"
  cmp -s -n "$(stat -c %s "$stem.csv")" "$stem.csv" "$csv" ||
    fail "$stem.csv is not a prefix of the final log $csv"
done
size0=$(png_size "${shots[0]}") size1=$(png_size "${shots[1]}")
echo "snapshots: ${shots[0]} ($size0), ${shots[1]} ($size1)"
[ "$size0" = 1000x700 ] || fail "first snapshot is $size0, expected the window's 1000x700"
[ "$size1" = 800x600 ] || fail "snapshot after the resize is $size1, expected 800x600"

# --- replay: the command the app printed --------------------------------------
replay=$(grep '^replay: aerolin simulate ' fly.out | tail -1) || fail "no replay command printed"
args=${replay#replay: aerolin }
# shellcheck disable=SC2086  # the printed command is split as a shell would
"$aerolin" $args > replay.out 2>&1 || fail "replay failed: $(cat replay.out)"
cmp "$csv" replay.csv || fail "the window's $csv differs from the replay's replay.csv"
echo "identical: $work/$csv and $work/replay.csv ($(($(wc -l < "$csv") - 1)) rows)"
