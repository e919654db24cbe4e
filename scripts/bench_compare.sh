#!/usr/bin/env bash
# Runs the benches of two checkouts of this repository alternately, in one
# run, so that the load of a shared machine falls on both alike:
#   scripts/bench_compare.sh OLD_CHECKOUT NEW_CHECKOUT [ROUNDS]
# e.g. git worktree add /tmp/old e8b3553 && scripts/bench_compare.sh /tmp/old . 2
# Each checkout's benches are built with `cargo bench --no-run` in it.
set -euo pipefail
old="$1" new="$2" rounds="${3:-2}"
bench_exe() { # CHECKOUT NAME -> the newest bench executable NAME-<hash>
    (cd "$1" && cargo bench --no-run --bench "$2" 2>&1) |
        sed -n "s/.*Executable benches\/$2.rs (\(.*\))/\1/p" | tail -1
}
for name in engine tiny eval levels; do
    o="$old/$(bench_exe "$old" "$name")"
    n="$new/$(bench_exe "$new" "$name")"
    args=()
    [ "$name" = engine ] && args=(ffo 40-44)
    for ((r = 1; r <= rounds; r++)); do
        for side in old new; do
            exe="$o"; [ "$side" = new ] && exe="$n"
            echo "== $side $name round $r"
            "$exe" --bench "${args[@]}" 2>&1 | tail -12
        done
    done
done
