#!/usr/bin/env bash
# Scores the real-failure corpus (tests/corpus) with triage: top-1 and top-3 per mode, layer, kind,
# mapped vs unmapped, and per batch today (in-sample) beside how it scored as it came (held out,
# tests/corpus/batches.tsv).
# CORPUS_VERBOSE=1 also lists every case whose top-1 is wrong.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo test -q --test corpus -- --ignored --nocapture score_table 2>&1 | grep -v '^running\|^test result\|^$\|^test score_table'
