#!/usr/bin/env bash
# Fuzz meeplex-engine (issue 9): the targets `deserialize` and `actions` (see src/lib.rs).
#
#   fuzz/run.sh TARGET SECONDS           libFuzzer through cargo fuzz, for SECONDS per target (TARGET: deserialize,
#                                        actions or all). On a stable toolchain cargo fuzz's nightly flags are
#                                        enabled with RUSTC_BOOTSTRAP=1. Without cargo-fuzz installed
#                                        (`cargo install cargo-fuzz`), the plain driver runs instead.
#   fuzz/run.sh --plain TARGET SECONDS   the plain driver: the same checks fed by SplitMix64, no libFuzzer
#   fuzz/run.sh --smoke [SECONDS]        CI: replay fuzz/regressions/TARGET/*, then every target for SECONDS
#                                        (default 5) with the plain driver
#
# A crash is saved under fuzz/artifacts/TARGET/ and the command reproducing it is printed; the exit status is
# non-zero. Environment: FUZZ_SANITIZER (libFuzzer: none by default, the engine being safe Rust; "address" for
# ASan), FUZZ_JOBS (libFuzzer -fork=N), FUZZ_ARGS (more libFuzzer arguments), FUZZ_SEED (the plain driver's
# seed, default 0), MEEPLEX_FUZZ_UNCHECKED=1 (`actions` also applies illegal ids with apply_unchecked).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
TARGETS=(deserialize actions)

usage() { # EXIT_STATUS
  sed -n '2,15p' "$here/run.sh" | sed 's/^# \{0,1\}//' >&2
  exit "${1:-2}"
}

PROFILE=fuzz

build_driver() {
  cargo build --quiet --profile "$PROFILE" --no-default-features --bin driver
}

driver() {
  "$here/target/$PROFILE/driver" "$@"
}

plain() { # TARGET SECONDS
  driver run "$1" "$2" --seed "${FUZZ_SEED:-0}"
}

libfuzzer() { # TARGET SECONDS
  local target="$1" seconds="$2" corpus="$here/corpus/$1" extra=()
  # Seed inputs from every game now registered (files are named by content: re-seeding adds only new ones).
  build_driver
  driver corpus "$target" "$corpus"
  if [ "$target" = deserialize ]; then
    driver dict "$here/corpus/state.dict"
    extra+=("-dict=$here/corpus/state.dict")
  fi
  [ -n "${FUZZ_JOBS:-}" ] && extra+=("-fork=$FUZZ_JOBS")
  # shellcheck disable=SC2086 # FUZZ_ARGS is a list of libFuzzer arguments
  RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir "$here" -O -a -s "${FUZZ_SANITIZER:-none}" "$target" "$corpus" -- \
    -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" ${FUZZ_ARGS:-}
}

each() { # RUNNER TARGET SECONDS
  local runner="$1" target="$2" seconds="$3" status=0 targets
  if [ "$target" = all ]; then targets=("${TARGETS[@]}"); else targets=("$target"); fi
  for t in "${targets[@]}"; do
    case " ${TARGETS[*]} " in *" $t "*) ;; *) echo "unknown target $t (known: ${TARGETS[*]} all)" >&2; exit 2 ;; esac
    echo "== fuzz $t for ${seconds}s ($runner)"
    "$runner" "$t" "$seconds" || status=1
  done
  return "$status"
}

case "${1:-}" in
  --smoke)
    [ $# -le 2 ] || usage
    PROFILE=smoke
    build_driver
    # Inputs that once crashed (fixed since) must keep passing.
    for t in "${TARGETS[@]}"; do
      files=("$here/regressions/$t"/*)
      [ -e "${files[0]}" ] && driver replay "$t" "${files[@]}"
    done
    each plain all "${2:-5}"
    ;;
  --plain)
    [ $# -eq 3 ] || usage
    build_driver
    each plain "$2" "$3"
    ;;
  -h | --help)
    usage 0
    ;;
  "")
    usage
    ;;
  *)
    [ $# -eq 2 ] || usage
    if cargo fuzz --version >/dev/null 2>&1; then
      each libfuzzer "$1" "$2"
    else
      echo "cargo-fuzz is not installed (cargo install cargo-fuzz): running the plain driver" >&2
      build_driver
      each plain "$1" "$2"
    fi
    ;;
esac
