// Shared helpers of gpucomm's native benches: argument parsing, size sweeps, CUDA error
// checks with file:line, timing and the output line format (see native/README.md).
#pragma once
#include <cuda_runtime.h>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gc {

// Exit codes, documented in native/README.md.
enum ExitCode { kOk = 0, kCorrupt = 1, kUsage = 2, kCudaError = 3, kNcclMissing = 4, kNcclError = 5 };

inline const char*& progName() {
  static const char* name = "bench";
  return name;
}

// Prints one error line on stderr and exits with `code`.
[[noreturn]] inline void die(int code, const char* fmt, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: ", progName());
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  std::exit(code);
}

// `native/<file name>` of a __FILE__, whatever path the compiler was given.
inline std::string srcName(const char* file) {
  const char* slash = std::strrchr(file, '/');
  return std::string("native/") + (slash ? slash + 1 : file);
}

inline void cudaCheck(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return;
  die(kCudaError, "%s: %s (%s) at %s:%d", call, cudaGetErrorName(e), cudaGetErrorString(e), srcName(file).c_str(), line);
}

// Checks a CUDA runtime call; on failure prints the call, error name, text and file:line, exit 3.
#define CUDA_CHECK(call) ::gc::cudaCheck((call), #call, __FILE__, __LINE__)
// Checks the last kernel launch.
#define CUDA_CHECK_LAUNCH() ::gc::cudaCheck(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

// ---------------------------------------------------------------- argument parsing

// Parses a size with an optional K/M/G suffix (powers of 1024); exits 2 when malformed.
inline size_t parseSize(const char* s, const char* flag) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  if (end == s || errno != 0 || v < 0) die(kUsage, "%s: not a size: '%s'", flag, s);
  double mul = 1;
  if (*end == 'K' || *end == 'k') mul = 1024.0, end++;
  else if (*end == 'M' || *end == 'm') mul = 1024.0 * 1024, end++;
  else if (*end == 'G' || *end == 'g') mul = 1024.0 * 1024 * 1024, end++;
  if (*end == 'B' || *end == 'b') end++;
  if (*end != '\0') die(kUsage, "%s: not a size: '%s'", flag, s);
  return (size_t)(v * mul);
}

// Parses a non-negative integer; exits 2 when malformed.
inline long parseInt(const char* s, const char* flag) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < 0) die(kUsage, "%s: not a non-negative integer: '%s'", flag, s);
  return v;
}

// Splits a comma list into its items (empty items dropped).
inline std::vector<std::string> splitList(const char* s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = s;; p++) {
    if (*p == ',' || *p == '\0') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (*p == '\0') break;
    } else {
      cur += *p;
    }
  }
  return out;
}

// Parses a list of GPU indices such as "0,1,3".
inline std::vector<int> parseIntList(const char* s, const char* flag) {
  std::vector<int> out;
  for (const std::string& item : splitList(s)) out.push_back((int)parseInt(item.c_str(), flag));
  if (out.empty()) die(kUsage, "%s: empty list", flag);
  return out;
}

// True when `item` is one of the comma list `allowed`.
inline bool inList(const std::string& item, const char* allowed) {
  for (const std::string& a : splitList(allowed))
    if (a == item) return true;
  return false;
}

// Parses a list whose items must each be in `allowed`; "all" expands to `allowed`.
inline std::vector<std::string> parseChoices(const char* s, const char* allowed, const char* flag) {
  if (std::strcmp(s, "all") == 0) return splitList(allowed);
  std::vector<std::string> out = splitList(s);
  if (out.empty()) die(kUsage, "%s: empty list", flag);
  for (const std::string& item : out)
    if (!inList(item, allowed)) die(kUsage, "%s: '%s' is not one of %s", flag, item.c_str(), allowed);
  return out;
}

// Command-line cursor: `next()` returns the value of a flag or exits 2.
struct Args {
  int argc;
  char** argv;
  int i = 1;
  const char* flag() const { return argv[i]; }
  bool is(const char* a, const char* b = nullptr) const {
    return std::strcmp(argv[i], a) == 0 || (b != nullptr && std::strcmp(argv[i], b) == 0);
  }
  const char* value() {
    if (i + 1 >= argc) die(kUsage, "%s needs a value", argv[i]);
    return argv[++i];
  }
};

// The geometric size sweep b, b*f, ... <= e (b itself when f <= 1 or b == 0 handling).
inline std::vector<size_t> sizeSweep(size_t b, size_t e, size_t f) {
  if (f < 2) die(kUsage, "factor must be at least 2");
  if (b == 0) b = 1;
  if (e < b) die(kUsage, "the largest size (%zu) is below the smallest (%zu)", e, b);
  std::vector<size_t> out;
  for (size_t s = b; s <= e; s *= f) {
    out.push_back(s);
    if (s > e / f) break;
  }
  return out;
}

// ---------------------------------------------------------------- output

// Prints a `key: value` config line.
inline void config(const char* key, const char* fmt, ...) {
  std::printf("%s: ", key);
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
  std::putchar('\n');
}

// Prints the first config lines of every bench: the format and the bench name.
inline void printHeader(const char* bench) {
  config("format", "gpucomm-native/2");
  config("bench", "%s", bench);
}

// Prints the CUDA config lines: runtime and driver versions, one line per GPU.
inline void printCudaConfig(const std::vector<int>& gpus) {
  int rt = 0, drv = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&rt));
  CUDA_CHECK(cudaDriverGetVersion(&drv));
  config("cuda-runtime", "%d", rt);
  config("cuda-driver", "%d", drv);
  for (int g : gpus) {
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, g));
    char key[32];
    std::snprintf(key, sizeof key, "gpu.%d", g);
    config(key, "%s | cc %d.%d | bus %04x:%02x:%02x.0", p.name, p.major, p.minor, p.pciDomainID, p.pciBusID, p.pciDeviceID);
  }
}

// Counts visible GPUs; no GPU or no driver is a CUDA error (exit 3, with the error name).
inline int deviceCount() {
  int n = 0;
  CUDA_CHECK(cudaGetDeviceCount(&n));
  if (n == 0) die(kCudaError, "cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device is detected) at %s:%d", srcName(__FILE__).c_str(), __LINE__);
  return n;
}

// Checks that every GPU index is visible.
inline void checkGpus(const std::vector<int>& gpus, int count) {
  for (int g : gpus)
    if (g < 0 || g >= count) die(kUsage, "GPU %d does not exist (%d visible)", g, count);
}

// Prints one result line: `<name>  1  <values>` (name already holds the /key=value parts).
inline void result(const std::string& name, const char* valuesFmt, ...) {
  std::printf("%s  1  ", name.c_str());
  va_list ap;
  va_start(ap, valuesFmt);
  std::vprintf(valuesFmt, ap);
  va_end(ap);
  std::putchar('\n');
}

// Appends `/key=value` to a benchmark name.
inline std::string& kv(std::string& name, const char* key, const std::string& value) {
  name += '/';
  name += key;
  name += '=';
  name += value;
  return name;
}
inline std::string& kv(std::string& name, const char* key, long long value) { return kv(name, key, std::to_string(value)); }

// ---------------------------------------------------------------- timing

// A pair of CUDA events on one device, timing what a stream does between them.
struct EventTimer {
  cudaEvent_t start = nullptr, stop = nullptr;
  void init(int device) {
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  // Seconds between the events (after synchronizing on the stop event).
  double seconds() const {
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms * 1e-3;
  }
  void destroy() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    start = stop = nullptr;
  }
};

// ---------------------------------------------------------------- latch

__global__ void latchKernel(volatile int* flag, unsigned long long timeoutNs) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (flag[0] == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > timeoutNs) {
      flag[1] = 1;
      return;
    }
    __nanosleep(200);
  }
}

// Holds streams back until everything of one timed iteration is enqueued, so that the
// events time what the GPU does, not how fast the host enqueues it: a one-thread kernel
// spins on a flag in mapped pinned memory until `release()` (or a timeout, then
// `timedOut()` is true and the time includes enqueueing).
struct Latch {
  volatile int* flag = nullptr;  // [0] release, [1] timed out
  int* dflag = nullptr;
  void init() {
    int* p = nullptr;
    CUDA_CHECK(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(&dflag, p, 0));
    flag = p;
    flag[0] = flag[1] = 0;
  }
  void arm() { flag[0] = 0, flag[1] = 0; }
  // Enqueues the spin kernel on `stream` (of the current device).
  void hold(cudaStream_t stream) {
    latchKernel<<<1, 1, 0, stream>>>(dflag, 100ull * 1000 * 1000);
    CUDA_CHECK_LAUNCH();
  }
  void release() {
    __sync_synchronize();
    flag[0] = 1;
    __sync_synchronize();
  }
  bool timedOut() const { return flag[1] != 0; }
};

}  // namespace gc
