#!/usr/bin/env bash
# Nothing lost on Ctrl-C: a real-time scripted aerolin-fly gets SIGINT a few
# seconds in; it must exit with 130 after flushing, its CSV must end at the
# time it reports, every row complete, and the printed replay command must
# reproduce that CSV byte for byte.
#
# usage: interrupt_check.sh FLY AEROLIN AIRCRAFT SCRIPT WORK
set -euo pipefail
fly=$(realpath "$1") aerolin=$(realpath "$2") aircraft=$(realpath "$3") script=$(realpath "$4")
work=$5
[ -n "${DISPLAY:-}" ] || { echo "no DISPLAY (run under xvfb-run -a)"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

timeout 120 "$fly" "$aircraft" --script "$script" --duration 60 --realtime \
  --log-dir "$work/log" --log-name int > fly.out 2> fly.err &
fly_pid=$!
trap 'kill "$fly_pid" 2>/dev/null || true' EXIT
# Interrupt once at least 2 s of flight are on disk (the log flushes every second).
for _ in $(seq 600); do
  kill -0 "$fly_pid" 2>/dev/null || fail "aerolin-fly ended early: $(cat fly.out fly.err)"
  [ -f log/int-1.csv ] && [ "$(wc -l < log/int-1.csv)" -ge 22 ] && break
  sleep 0.1
done
# `timeout` runs the app as its child: signal the app itself.
app_pid=$(pgrep -P "$fly_pid" -f aerolin-fly || echo "$fly_pid")
kill -INT "$app_pid"
set +e
wait "$fly_pid"
code=$?
set -e
[ "$code" -eq 130 ] || fail "exit code $code, expected 130; $(cat fly.out fly.err)"
reported=$(sed -nE 's/^interrupted at t = ([0-9.]+) s.*/\1/p' fly.out)
[ -n "$reported" ] || fail "no 'interrupted at t = ...' line: $(cat fly.out)"
last=$(tail -n 1 log/int-1.csv | cut -d, -f1)
awk -v a="$last" -v b="$reported" 'BEGIN { exit !((a - b) < 1e-6 && (b - a) < 1e-6) }' ||
  fail "CSV ends at t = $last, app reported $reported"
fields=$(head -n 1 log/int-1.csv | tr ',' '\n' | wc -l)
awk -F, -v n="$fields" 'NF != n { bad = 1 } END { exit bad }' log/int-1.csv ||
  fail "a CSV row is incomplete"
replay=$(sed -nE 's/^replay: //p' fly.out)
[ -n "$replay" ] || fail "no replay command printed"
replay=${replay/aerolin simulate/$aerolin simulate}
(cd "$work" && eval "$replay" > replay.out) || fail "replay failed: $replay"
cmp -s log/int-1.csv replay.csv || fail "replayed CSV differs from the interrupted flight's log"
echo "interrupted at t = $reported s; $(($(wc -l < log/int-1.csv) - 1)) slices logged; replay identical"
