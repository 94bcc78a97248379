#!/usr/bin/env bash
# GPU smoke test of gpucomm's native benches, on GPU 0 only, in under 5 minutes:
#   1. gpucomm build (for the arch nvidia-smi reports)
#   2. p2p_bench on GPU 0: same-GPU copy-engine and SM copies, and the P2P-disabled path
#      staged through pinned host memory (the host-staged floor, measurable on one GPU)
#   3. coll_bench -g 1 with NCCL from pip's wheel (installed with --user when missing and
#      the network allows; otherwise coll_bench's own search decides, and exit 4 is reported)
#   4. both outputs imported into one result set, and a short table printed
# Logs and outputs go to $OUT when it is set (else a temporary folder, printed at the end).
# Exit: 0 when build, p2p_bench, import and show succeed (coll_bench without NCCL is
# reported, not fatal); 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
LOG="${OUT:-$(mktemp -d -t gpucomm-smoke-XXXXXX)}"
mkdir -p "$LOG"
exec > >(tee -a "$LOG/smoke.log") 2>&1
GPUCOMM=(node --import tsx src/cli/main.ts)
status=0
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
field() { node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]))' "$1" "$2"; }

step "GPU"
nvidia-smi --query-gpu=index,name,compute_cap,driver_version --format=csv,noheader || echo "nvidia-smi failed"

step "build"
if ! "${GPUCOMM[@]}" build --json > "$LOG/build.json"; then
  echo "FAILED: gpucomm build"; exit 1
fi
P2P="$(field "$LOG/build.json" p2pBench)"
COLL="$(field "$LOG/build.json" collBench)"
echo "p2p_bench: $P2P"; echo "coll_bench: $COLL"
echo "compile: $(field "$LOG/build.json" compileS) s, arch $(field "$LOG/build.json" arch), cached $(field "$LOG/build.json" cached)"

step "p2p_bench on GPU 0 (ce and sm copies, P2P enabled and host-staged)"
timeout 150 "$P2P" --gpus 0 -b 4 -e 1M -f 4 -B 1M -E 64M -F 8 -n 20 -w 5 > "$LOG/p2p.txt" 2> "$LOG/p2p.err"
rc=$?
echo "p2p_bench exit $rc; $(grep -c '^Benchmark' "$LOG/p2p.txt") result lines; $(grep -c '^CORRUPT' "$LOG/p2p.txt") CORRUPT"
cat "$LOG/p2p.err"
[ "$rc" -eq 0 ] || { echo "FAILED: p2p_bench"; status=1; }

step "NCCL from the Python wheel"
if python3 -c 'import nvidia.nccl' 2> /dev/null; then
  echo "nvidia.nccl is importable"
else
  echo "nvidia.nccl is not importable: trying python3 -m pip install --user nvidia-nccl-cu12"
  timeout 120 python3 -m pip install --user --quiet --retries 0 --timeout 15 nvidia-nccl-cu12 \
    || echo "could not install nvidia-nccl-cu12 (no network or no pip?); coll_bench will search NCCL_LIBRARY, NCCL_HOME, the loader path and site-packages"
fi

step "coll_bench -g 1 (all collectives)"
timeout 90 "$COLL" -g 1 --coll all -b 8 -e 64M -f 8 -n 20 -w 5 > "$LOG/coll.txt" 2> "$LOG/coll.err"
crc=$?
cat "$LOG/coll.err"
grep '^nccl-' "$LOG/coll.txt" || true
echo "coll_bench exit $crc; $(grep -c '^Benchmark' "$LOG/coll.txt") result lines"
case "$crc" in
  0) ;;
  4) echo "SKIPPED: coll_bench found no usable NCCL (exit 4)"; rm -f "$LOG/coll.txt" ;;
  *) echo "FAILED: coll_bench"; status=1 ;;
esac

step "import and show"
files=()
for f in "$LOG/p2p.txt" "$LOG/coll.txt"; do grep -q '^Benchmark' "$f" 2> /dev/null && files+=("$f"); done
rm -rf "$LOG/set"
if [ "${#files[@]}" -eq 0 ]; then
  echo "FAILED: no bench printed a result line"; status=1
elif "${GPUCOMM[@]}" import "${files[@]}" --out "$LOG/set" && "${GPUCOMM[@]}" show "$LOG/set" | tee "$LOG/table.txt"; then
  :
else
  echo "FAILED: import/show"; status=1
fi

step "key numbers (medians over iterations)"
node --input-type=module -e '
  import { readFileSync } from "node:fs"
  const rows = readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l))
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }
  for (const [p2p, copy] of [["enabled", "ce"], ["enabled", "sm"], ["disabled", "ce"], ["disabled", "sm"]]) {
    const xs = rows.filter((r) => r.bench === "p2p.latency" && r.src === 0 && r.dst === 0 && r.sizeBytes === 16 && r.p2p === p2p && r.copy === copy).map((r) => r.value)
    if (xs.length) console.log(`GPU0->GPU0 16 B copy, p2p=${p2p} copy=${copy}: ${(med(xs) * 1e6).toFixed(2)} us (n=${xs.length})`)
  }
  for (const [p2p, copy] of [["enabled", "ce"], ["disabled", "ce"]]) {
    const xs = rows.filter((r) => r.bench === "p2p.bw_uni" && r.src === 0 && r.dst === 0 && r.sizeBytes === 64 * 2 ** 20 && r.p2p === p2p && r.copy === copy).map((r) => r.value)
    if (xs.length) console.log(`GPU0->GPU0 64 MiB copy, p2p=${p2p} copy=${copy}: ${(med(xs) / 1e9).toFixed(1)} GB/s`)
  }
' "$LOG/set/samples.jsonl" 2> /dev/null || echo "(no result set)"

echo
echo "logs and outputs: $LOG"
[ "$status" -eq 0 ] && echo "SMOKE OK" || echo "SMOKE FAILED"
exit "$status"
