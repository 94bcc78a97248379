#!/usr/bin/env bash
# The first-GPU validation plan of gpucomm's native benches, on GPU 0 only, in one call (about
# 5 minutes on an H200). It prints a table of our figures beside the upstream figure each should
# match, and checks what must hold:
#   1. build: `gpucomm build` (for the arch nvidia-smi reports); where Node.js or node_modules
#      is missing (a bare GPU node), nvcc is called directly (with -Wall -Wextra)
#   2. p2p_bench on GPU 0: self-copy latency, copy engine and SM, batched (a sample spans
#      ≥ 20 µs) and one copy per sample, 200 iterations each (no latch WARN may appear);
#      self-copy bandwidth at 16 MiB and 256 MiB, uni- and bidirectional; the host bounce
#      (the host-staged path, measurable on one GPU) at the same sizes
#   3. upstream, where installed (never installed here): p2pBandwidthLatencyTest (cuda-samples;
#      its diagonal counts 2·size per copy, 4·size bidirectional) and nvbandwidth
#      (host_to_device_memcpy_ce, device_to_host_memcpy_ce, device_local_copy); where absent
#      the table says so and still prints our figures
#   4. coll_bench -g 1: every collective, data type and op, with and without CUDA graphs
#      (exit 0, no CORRUPT), with NCCL from pip's wheel or coll_bench's own search (its exit 4
#      is reported, not fatal)
#   5. every output imported into one result set and shown (needs Node.js and `npm ci`)
# Logs and outputs go to $OUT when it is set (else a temporary folder, printed at the end).
# Exit: 0 when build, p2p_bench (no CORRUPT, no WARN), coll_bench (unless no NCCL) and, where
# Node.js is there, import and show succeed; 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
LOG="${OUT:-$(mktemp -d -t gpucomm-smoke-XXXXXX)}"
mkdir -p "$LOG"
exec > >(tee -a "$LOG/smoke.log") 2>&1
status=0
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
fail() { echo "FAILED: $*"; status=1; }
# median FILE PREFIX FIELD: median of column FIELD over the result lines whose name starts with PREFIX.
median() {
  grep -F -- "$2" "$1" 2> /dev/null | grep -E '^Benchmark[^ ]*/iter=[0-9]+ ' | awk -v f="$3" '{ print $f }' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m }'
}
# batch FILE PREFIX: the batch=K of the first result line whose name starts with PREFIX.
batch() { grep -F -- "$2" "$1" 2> /dev/null | grep -m 1 -oE '/batch=[0-9]+' | cut -d= -f2; }
# diag FILE TITLE: GPU 0's own value in the p2pBandwidthLatencyTest matrix whose title starts with TITLE.
diag() { awk -v t="$2" 'index($0, t) == 1 { m = 1; next } m && $1 == "0" { print $2; exit }' "$1" 2> /dev/null; }
# nvbw NAME: the SUM line of one nvbandwidth test case (one GPU: its value).
nvbw() { awk -v n="$1" '$1 == "SUM" && $2 == n { print $3; exit }' "$LOG/nvbandwidth.txt" 2> /dev/null; }
times2() { [ -n "$1" ] && awk -v v="$1" 'BEGIN { printf "%.3f", 2 * v }'; }
row() { printf '%-58s %12s %12s  %s\n' "$1" "${2:--}" "${3:--}" "$4"; }
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
  flags=(-O3 -std=c++17 -arch="${arch:-native}" -Xcompiler -Wall,-Wextra)
  if ! "$NVCC" "${flags[@]}" -o "$P2P" native/p2p_bench.cu || ! "$NVCC" "${flags[@]}" -o "$COLL" native/coll_bench.cu -ldl; then
    echo "FAILED: nvcc"; exit 1
  fi
  echo "compile: $((SECONDS - t0)) s, arch ${arch:-native}"
fi
echo "p2p_bench: $P2P"; echo "coll_bench: $COLL"

step "p2p_bench on GPU 0"
# p2p NAME ARGS…: one p2p_bench run into $LOG/p2p-NAME.txt; a CORRUPT, a WARN or a non-zero exit fails the smoke.
p2p() {
  local name="$1"; shift
  timeout 200 "$P2P" --gpus 0 --pairs self "$@" > "$LOG/p2p-$name.txt" 2> "$LOG/p2p-$name.err"
  local rc=$?
  local corrupt warn
  corrupt="$(grep -c '^CORRUPT' "$LOG/p2p-$name.txt")"; warn="$(grep -c '^WARN' "$LOG/p2p-$name.txt")"
  echo "p2p_bench $name: exit $rc; $(grep -c '^Benchmark' "$LOG/p2p-$name.txt") result lines, $corrupt CORRUPT, $warn WARN"
  cat "$LOG/p2p-$name.err"
  grep -E '^(WARN|CORRUPT)' "$LOG/p2p-$name.txt" | head -n 3
  [ "$rc" -eq 0 ] && [ "$corrupt" -eq 0 ] && [ "$warn" -eq 0 ] || fail "p2p_bench $name"
}
p2p latency --tests latency -b 4 -e 4 --p2p enabled,bounce -n 200 -w 10
p2p latency1 --tests latency -b 4 -e 4 --p2p enabled,bounce -n 200 -w 10 --batch 1
p2p bw --tests bw_uni,bw_bi -B 16M -E 256M -F 16 --p2p enabled,bounce -n 20 -w 3
grep -E '^(gpu\.|cuda-|batch|bandwidth)' "$LOG/p2p-latency.txt"

step "upstream tools"
if command -v p2pBandwidthLatencyTest > /dev/null; then
  CUDA_VISIBLE_DEVICES=0 timeout 120 p2pBandwidthLatencyTest > "$LOG/p2pBandwidthLatencyTest.txt" 2>&1 ||
    echo "p2pBandwidthLatencyTest failed (its output: $LOG/p2pBandwidthLatencyTest.txt)"
else
  echo "p2pBandwidthLatencyTest is not installed (cuda-samples, Samples/5_Domain_Specific/p2pBandwidthLatencyTest): its column stays empty"
fi
if command -v nvbandwidth > /dev/null; then
  CUDA_VISIBLE_DEVICES=0 timeout 120 nvbandwidth -t host_to_device_memcpy_ce device_to_host_memcpy_ce device_local_copy > "$LOG/nvbandwidth.txt" 2>&1 ||
    echo "nvbandwidth failed (its output: $LOG/nvbandwidth.txt)"
else
  echo "nvbandwidth is not installed (github.com/NVIDIA/nvbandwidth): its column stays empty"
fi
UP="$LOG/p2pBandwidthLatencyTest.txt"

step "coll_bench -g 1: every collective, type and op, with and without CUDA graphs"
cuda_major="$("$NVCC" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')"
if ! python3 -c 'import glob, site, sys; sys.exit(0 if any(glob.glob(p + "/nvidia/nccl/lib/libnccl.so*") for p in site.getsitepackages() + [site.getusersitepackages()]) else 1)' 2> /dev/null; then
  echo "no NCCL wheel in python3's site-packages (python3 -m pip install nvidia-nccl-cu${cuda_major:-13} provides one); coll_bench searches NCCL_LIBRARY, NCCL_HOME and the loader path"
fi
coll_files=()
for g in 0 1; do
  out="$LOG/coll-graph$g.txt"
  timeout 240 "$COLL" -g 1 --coll all -d all -o all -b 8 -e 1M -f 32 -n 5 -w 2 -G "$g" > "$out" 2> "$LOG/coll-graph$g.err"
  crc=$?
  cat "$LOG/coll-graph$g.err"
  [ "$g" -eq 0 ] && grep -E '^(nccl-|timing|# NCCL)' "$out"
  echo "coll_bench -G $g: exit $crc; $(grep -c '/iter=' "$out") timed iterations, $(grep -c ' wrong$' "$out") checked cases, $(grep -c '^CORRUPT' "$out") CORRUPT, $(grep -c '^WARN' "$out") WARN"
  grep -E '^CORRUPT' "$out" | head -n 5
  case "$crc" in
    0) coll_files+=("$out") ;;
    4) echo "SKIPPED: coll_bench found no usable NCCL (exit 4)"; break ;;
    *) fail "coll_bench -G $g" ;;
  esac
done

step "import and show"
files=()
for f in "$LOG"/p2p-*.txt "${coll_files[@]}"; do grep -q '^Benchmark' "$f" 2> /dev/null && files+=("$f"); done
rm -rf "$LOG/set"
if [ "${#files[@]}" -eq 0 ]; then
  fail "no bench printed a result line"
elif [ "$have_node" -eq 0 ]; then
  echo "SKIPPED: import and show need Node.js and npm ci; the table below comes straight from the bench output"
elif ! { "${GPUCOMM[@]}" import "${files[@]}" --out "$LOG/set" && "${GPUCOMM[@]}" show "$LOG/set" > "$LOG/table.txt"; }; then
  fail "import/show"
else
  echo "imported $(wc -l < "$LOG/set/samples.jsonl" 2> /dev/null || echo '?') rows; table: $LOG/table.txt"
fi

step "figures: gpucomm beside upstream (medians over the timed samples)"
L="$LOG/p2p-latency.txt"; L1="$LOG/p2p-latency1.txt"; B="$LOG/p2p-bw.txt"
lat=BenchmarkP2PLatency/src=0/dst=0/size=4
row "figure" "gpucomm" "upstream" "upstream source (what should match)"
for copy in ce sm; do
  k="$(batch "$L" "$lat/p2p=enabled/copy=$copy/")"
  up=""; [ "$copy" = ce ] && up="$(diag "$UP" 'P2P=Enabled Latency')"
  row "self-copy latency 4 B, $copy, batch ${k:-?} (us)" "$(median "$L" "$lat/p2p=enabled/copy=$copy/" 3)" "$up" \
    "$([ "$copy" = ce ] && echo 'p2pBandwidthLatencyTest P2P=Enabled latency, GPU 0 diagonal (100 copies per event pair)')"
  row "self-copy latency 4 B, $copy, one copy per sample (us)" "$(median "$L1" "$lat/p2p=enabled/copy=$copy/" 3)" "" \
    "none: above the batched figure by the latch → event → engine hand-off"
done
for copy in ce sm; do
  row "host bounce latency 4 B, $copy, batch $(batch "$L" "$lat/p2p=bounce/copy=$copy/") (us)" \
    "$(median "$L" "$lat/p2p=bounce/copy=$copy/" 3)" "" "none: about one device→host plus one host→device copy"
done
for size in 16777216 268435456; do
  mib=$((size >> 20))
  uni="$(median "$B" "BenchmarkP2PBwUni/src=0/dst=0/size=$size/p2p=enabled/copy=ce/" 5)"
  bi="$(median "$B" "BenchmarkP2PBwBi/src=0/dst=0/size=$size/p2p=enabled/copy=ce/" 5)"
  up_uni=""; up_bi=""; local_copy=""
  if [ "$size" -eq 268435456 ]; then
    up_uni="$(diag "$UP" 'Unidirectional P2P=Enabled Bandwidth')"; up_bi="$(diag "$UP" 'Bidirectional P2P=Enabled Bandwidth')"
    local_copy="$(nvbw device_local_copy)"
  fi
  row "self-copy $mib MiB, ce, size/time (GB/s)" "$uni" "$local_copy" "$([ -n "$local_copy" ] && echo 'nvbandwidth device_local_copy')"
  row "self-copy $mib MiB, ce, sample's 2·size/time (GB/s)" "$(times2 "$uni")" "$up_uni" \
    "$([ "$size" -eq 268435456 ] && echo 'p2pBandwidthLatencyTest unidirectional P2P=Enabled, diagonal (160 MB copies)')"
  row "self-copy $mib MiB bidir, ce, 2·size/time (GB/s)" "$bi" "" ""
  row "self-copy $mib MiB bidir, ce, sample's 4·size/time (GB/s)" "$(times2 "$bi")" "$up_bi" \
    "$([ "$size" -eq 268435456 ] && echo 'p2pBandwidthLatencyTest bidirectional P2P=Enabled, diagonal')"
  for copy in ce sm; do
    h2d="$(nvbw host_to_device_memcpy_ce)"; d2h="$(nvbw device_to_host_memcpy_ce)"
    up="$([ -n "$h2d" ] && [ -n "$d2h" ] && awk -v a="$h2d" -v b="$d2h" 'BEGIN { printf "%.2f", a < b ? a : b }')"
    row "host bounce $mib MiB, $copy (GB/s)" "$(median "$B" "BenchmarkP2PBwUni/src=0/dst=0/size=$size/p2p=bounce/copy=$copy/" 5)" \
      "$up" "min(host→device, device→host) of nvbandwidth: the legs overlap"
  done
done
row "latch WARN lines over 200 samples (must be 0)" "$(cat "$LOG"/p2p-latency*.txt | grep -c '^WARN')" "0" ""
for f in "${coll_files[@]}"; do
  row "coll_bench $(basename "$f" .txt): CORRUPT (must be 0)" "$(grep -c '^CORRUPT' "$f")" "0" ""
  for size in 8 1048576; do
    m="$(median "$f" "BenchmarkNcclAllReduce/ranks=1/size=$size/count=$((size / 4))/type=float/redop=sum/root=-1/place=out/" 3)"
    [ -n "$m" ] && row "  all_reduce 1 rank $size B, float sum (us)" "$m" "" "nccl-tests all_reduce_perf -g 1 (time column)"
  done
done

echo
echo "logs and outputs: $LOG"
[ "$status" -eq 0 ] && echo "SMOKE OK" || echo "SMOKE FAILED"
exit "$status"
