// coll_bench's NCCL: the library loaded at run time (nccl_api.h), the NCCL_CHECK macro
// (call, error number and text, file:line; exit 5), and loading with its error lines (exit 4).
#pragma once
#include "common.cuh"
#include "nccl_api.h"

#include <string>

namespace coll {

// The loaded NCCL (filled by loadNccl).
inline nccl::Api api;

// Checks an NCCL call; on failure prints the call, the error and file:line, exit 5.
#define NCCL_CHECK(call) ::coll::ncclCheck((call), #call, __FILE__, __LINE__)
inline void ncclCheck(nccl::Result r, const char* call, const char* file, int line) {
  if (r == nccl::kSuccess) return;
  gc::die(gc::kNcclError, "%s: NCCL error %d (%s) at %s:%d", call, r, api.getErrorString ? api.getErrorString(r) : "?", gc::srcName(file).c_str(), line);
}

// Loads NCCL (or exits 4 naming every place tried); prints its config lines when `print`.
inline void loadNccl(bool print) {
  std::string tried;
  int unusable = 0;
  if (!nccl::load(api, tried, unusable))
    gc::die(gc::kNcclMissing, "%s; tried: %s (set NCCL_LIBRARY to libnccl.so.2, or NCCL_HOME, or pip install nvidia-nccl-cu%d)",
            unusable ? "no usable NCCL library" : "NCCL library not found", tried.c_str(), CUDART_VERSION / 1000);
  if (!print) return;
  gc::config("nccl-library", "%s", api.path.c_str());
  gc::config("nccl-version", "%d", api.version);
  gc::config("nccl-version-string", "%s", nccl::versionString(api.version).c_str());
  if (unusable) std::printf("# NCCL libraries passed over: %s\n", tried.c_str());
  std::fflush(stdout);
}

}  // namespace coll
