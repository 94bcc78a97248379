// p2p_bench's arithmetic, with no CUDA header: how many copies a timed sample holds (--batch),
// how the host bounce cuts a copy into chunks, and the bandwidth conventions. Tested with the
// host compiler (test/native/coll_values_test.cpp).
#pragma once
#include <cstddef>

namespace p2p {

// A sample should span at least this long: cudaEventElapsedTime resolves about 0.5 µs, and each
// sample pays the latch → event → copy-engine hand-off once, whatever the batch.
const double kMinSampleS = 20e-6;
// Most copies one sample holds (all enqueued behind the latch, well inside its 100 ms).
const long kMaxBatch = 1000;

// The next batch size to try after a sample of `batch` copies took `seconds`, or 0 when that
// sample already spans kMinSampleS (or the batch is at its maximum): aims at 1.25× the span.
inline long nextBatch(long batch, double seconds) {
  if (seconds >= kMinSampleS || batch >= kMaxBatch) return 0;
  double perCopy = seconds > 0 ? seconds / (double)batch : kMinSampleS / 1e3;
  long want = (long)(1.25 * kMinSampleS / perCopy) + 1;
  if (want < 2 * batch) want = 2 * batch;
  return want < kMaxBatch ? want : kMaxBatch;
}

// The host bounce copies in chunks of `chunk` bytes: chunk k covers [k·chunk, min(n, (k+1)·chunk)).
inline size_t chunkCount(size_t n, size_t chunk) { return chunk == 0 || n == 0 ? 1 : (n + chunk - 1) / chunk; }
inline size_t chunkBytes(size_t n, size_t chunk, size_t k) {
  if (chunk == 0) return n;
  size_t start = k * chunk;
  return start >= n ? 0 : (n - start < chunk ? n - start : chunk);
}

// Bytes a bandwidth value counts per copy of `size` bytes: size per direction (2·size for
// bw_bi), for a copy inside one GPU too. p2pBandwidthLatencyTest counts a copy inside one GPU
// (its matrix diagonal) as read plus write: twice this (2·size, 4·size bidirectional).
inline double countedBytes(size_t size, bool bidir) { return (double)size * (bidir ? 2.0 : 1.0); }

}  // namespace p2p
