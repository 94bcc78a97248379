#!/usr/bin/env bash
# GPU smoke test of gpucomm's native benches, on GPU 0 only, in under 5 minutes:
#   1. build: `gpucomm build` (for the arch nvidia-smi reports); where Node.js or node_modules
#      is missing (a bare GPU node), nvcc is called directly, as native/README.md shows
#   2. p2p_bench on GPU 0: same-GPU copy-engine and SM copies, and the P2P-disabled path
#      staged through pinned host memory (the host-staged floor, measurable on one GPU)
#   3. coll_bench -g 1 with NCCL from pip's wheel (nvidia-nccl-cuNN, which this script never
#      installs: where python3 has none, coll_bench's own search decides, and its exit 4 is
#      reported, not fatal)
#   4. both outputs imported into one result set and shown (needs Node.js and `npm ci`), and
#      the key medians read straight off the bench output (needs only awk and sort)
# Logs and outputs go to $OUT when it is set (else a temporary folder, printed at the end).
# Exit: 0 when build, p2p_bench and (where Node.js is there) import and show succeed; 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
LOG="${OUT:-$(mktemp -d -t gpucomm-smoke-XXXXXX)}"
mkdir -p "$LOG"
exec > >(tee -a "$LOG/smoke.log") 2>&1
status=0
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
# median FILE PREFIX FIELD: median of column FIELD over the result lines whose name starts with PREFIX.
median() {
  grep -F -- "$2" "$1" 2> /dev/null | grep -E '^Benchmark[^ ]*/iter=[0-9]+ ' | awk -v f="$3" '{ print $f }' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f (n=%d)", m, NR }'
}
json_field() { node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]))' "$1" "$2"; }

have_node=0
if command -v node > /dev/null && [ -d node_modules ]; then have_node=1; fi
GPUCOMM=(node bin/gpucomm.js)

step "GPU"
nvidia-smi --query-gpu=index,name,compute_cap,driver_version --format=csv,noheader || echo "nvidia-smi failed"
command -v nvcc > /dev/null || [ -n "${CUDA_HOME:-}" ] || echo "nvcc is not on PATH and CUDA_HOME is unset"
NVCC="$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
"$NVCC" --version | tail -n 2

step "build"
if [ "$have_node" -eq 1 ]; then
  if ! "${GPUCOMM[@]}" build --json > "$LOG/build.json"; then
    echo "FAILED: gpucomm build"; exit 1
  fi
  P2P="$(json_field "$LOG/build.json" p2pBench)"
  COLL="$(json_field "$LOG/build.json" collBench)"
  echo "compile: $(json_field "$LOG/build.json" compileS) s, arch $(json_field "$LOG/build.json" arch), cached $(json_field "$LOG/build.json" cached)"
else
  echo "Node.js or node_modules is missing (run npm ci for the full smoke): building with nvcc directly"
  cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -n 1 | tr -d ' .')"
  arch="${cap:+sm_$cap}"
  mkdir -p "$LOG/bin"
  P2P="$LOG/bin/p2p_bench"; COLL="$LOG/bin/coll_bench"
  t0=$SECONDS
  if ! "$NVCC" -O3 -std=c++17 -arch="${arch:-native}" -o "$P2P" native/p2p_bench.cu ||
    ! "$NVCC" -O3 -std=c++17 -arch="${arch:-native}" -o "$COLL" native/coll_bench.cu -ldl; then
    echo "FAILED: nvcc"; exit 1
  fi
  echo "compile: $((SECONDS - t0)) s, arch ${arch:-native}"
fi
echo "p2p_bench: $P2P"; echo "coll_bench: $COLL"

step "p2p_bench on GPU 0 (ce and sm copies, P2P enabled and host-staged)"
timeout 150 "$P2P" --gpus 0 -b 4 -e 1M -f 4 -B 1M -E 64M -F 8 -n 20 -w 5 > "$LOG/p2p.txt" 2> "$LOG/p2p.err"
rc=$?
echo "p2p_bench exit $rc; $(grep -c '^Benchmark' "$LOG/p2p.txt") result lines; $(grep -c '^CORRUPT' "$LOG/p2p.txt") CORRUPT; $(grep -c '^WARN' "$LOG/p2p.txt") WARN"
grep -E '^(gpu\.|cuda-)' "$LOG/p2p.txt"
grep -E '^(WARN|CORRUPT)' "$LOG/p2p.txt" | head -n 5
cat "$LOG/p2p.err"
[ "$rc" -eq 0 ] || { echo "FAILED: p2p_bench"; status=1; }

step "NCCL from the Python wheel"
cuda_major="$("$NVCC" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')"
if python3 -c 'import glob, site, sys; sys.exit(0 if any(glob.glob(p + "/nvidia/nccl/lib/libnccl.so*") for p in site.getsitepackages() + [site.getusersitepackages()]) else 1)' 2> /dev/null; then
  echo "python3's site-packages hold nvidia/nccl/lib/libnccl.so.2"
else
  echo "no NCCL wheel in python3's site-packages (python3 -m pip install nvidia-nccl-cu${cuda_major:-13} provides one); coll_bench will search NCCL_LIBRARY, NCCL_HOME and the loader path"
fi

step "coll_bench -g 1 (all collectives)"
timeout 90 "$COLL" -g 1 --coll all -b 8 -e 64M -f 8 -n 20 -w 5 > "$LOG/coll.txt" 2> "$LOG/coll.err"
crc=$?
cat "$LOG/coll.err"
grep '^nccl-' "$LOG/coll.txt" || true
echo "coll_bench exit $crc; $(grep -c '^Benchmark' "$LOG/coll.txt") result lines; $(grep -c '^CORRUPT' "$LOG/coll.txt") CORRUPT"
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
elif [ "$have_node" -eq 0 ]; then
  echo "SKIPPED: import and show need Node.js and npm ci; the medians below come straight from the bench output"
elif "${GPUCOMM[@]}" import "${files[@]}" --out "$LOG/set" && "${GPUCOMM[@]}" show "$LOG/set" | tee "$LOG/table.txt"; then
  :
else
  echo "FAILED: import/show"; status=1
fi

step "key numbers (medians over the timed iterations)"
for mode in "enabled/copy=ce" "enabled/copy=sm" "disabled/copy=ce" "disabled/copy=sm"; do
  m="$(median "$LOG/p2p.txt" "BenchmarkP2PLatency/src=0/dst=0/size=16/p2p=$mode/" 3)" &&
    echo "GPU0->GPU0 16 B copy, p2p=${mode/\/copy=/ copy=}: $m us"
done
for mode in "enabled/copy=ce" "disabled/copy=ce"; do
  m="$(median "$LOG/p2p.txt" "BenchmarkP2PBwUni/src=0/dst=0/size=67108864/p2p=$mode/" 5)" &&
    echo "GPU0->GPU0 64 MiB copy, p2p=${mode/\/copy=/ copy=}: $m GB/s"
done
for size in 8 67108864; do
  m="$(median "$LOG/coll.txt" "BenchmarkNcclAllReduce/ranks=1/size=$size/" 3)" &&
    echo "all_reduce, 1 rank, $size B: $m us"
done

echo
echo "logs and outputs: $LOG"
[ "$status" -eq 0 ] && echo "SMOKE OK" || echo "SMOKE FAILED"
exit "$status"
