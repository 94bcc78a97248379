// gpucomm's own declarations of the part of NCCL's public C API that coll_bench uses, written
// from NCCL's user guide (types and API pages), plus a loader that finds the library at run
// time with dlopen. No NCCL header is needed to build, and none is included.
#pragma once
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace nccl {

// ncclResult_t: 0 success; 1 unhandled CUDA error; 2 system error; 3 internal error;
// 4 invalid argument; 5 invalid usage; 6 remote error; 7 in progress; 8 timeout (ncclTimeout,
// in recent releases).
typedef int Result;
const Result kSuccess = 0;

// ncclDataType_t values.
enum DataType { Int8 = 0, Uint8 = 1, Int32 = 2, Uint32 = 3, Int64 = 4, Uint64 = 5, Float16 = 6, Float32 = 7, Float64 = 8, Bfloat16 = 9 };
// ncclRedOp_t values of the built-in reductions.
enum RedOp { Sum = 0, Prod = 1, Max = 2, Min = 3, Avg = 4 };

// ncclComm_t: a pointer to an opaque communicator.
typedef struct OpaqueComm* Comm;
// ncclUniqueId: 128 opaque bytes that every rank must receive from rank 0.
struct UniqueId {
  char internal[128];
};

// Function pointer types, one per API entry point used (signatures from the API reference).
typedef Result (*GetVersionFn)(int* version);
typedef const char* (*GetErrorStringFn)(Result result);
typedef Result (*GetUniqueIdFn)(UniqueId* uniqueId);
typedef Result (*CommInitRankFn)(Comm* comm, int nranks, UniqueId commId, int rank);
typedef Result (*CommDestroyFn)(Comm comm);
typedef Result (*GroupStartFn)();
typedef Result (*GroupEndFn)();
typedef Result (*AllReduceFn)(const void* sendbuff, void* recvbuff, size_t count, int datatype, int op, Comm comm, cudaStream_t stream);
typedef Result (*BroadcastFn)(const void* sendbuff, void* recvbuff, size_t count, int datatype, int root, Comm comm, cudaStream_t stream);
typedef Result (*AllGatherFn)(const void* sendbuff, void* recvbuff, size_t sendcount, int datatype, Comm comm, cudaStream_t stream);
typedef Result (*ReduceScatterFn)(const void* sendbuff, void* recvbuff, size_t recvcount, int datatype, int op, Comm comm, cudaStream_t stream);
typedef Result (*SendFn)(const void* sendbuff, size_t count, int datatype, int peer, Comm comm, cudaStream_t stream);
typedef Result (*RecvFn)(void* recvbuff, size_t count, int datatype, int peer, Comm comm, cudaStream_t stream);

// The loaded library: its path, version and entry points.
struct Api {
  void* handle = nullptr;
  std::string path;
  int version = 0;
  GetVersionFn getVersion = nullptr;
  GetErrorStringFn getErrorString = nullptr;
  GetUniqueIdFn getUniqueId = nullptr;
  CommInitRankFn commInitRank = nullptr;
  CommDestroyFn commDestroy = nullptr;
  GroupStartFn groupStart = nullptr;
  GroupEndFn groupEnd = nullptr;
  AllReduceFn allReduce = nullptr;
  BroadcastFn broadcast = nullptr;
  AllGatherFn allGather = nullptr;
  ReduceScatterFn reduceScatter = nullptr;
  SendFn send = nullptr;
  RecvFn recv = nullptr;
};

// "2.28.7" from a version code: X*10000+Y*100+Z since 2.9, X*1000+Y*100+Z before.
inline std::string versionString(int code) {
  int major, minor, patch;
  if (code >= 10000) major = code / 10000, minor = (code % 10000) / 100, patch = code % 100;
  else major = code / 1000, minor = (code % 1000) / 100, patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// Site-packages folders of python3 (pip's NCCL wheels, cu12 and cu13 alike, install
// nvidia/nccl/lib there). python3 is run with an argument vector (no shell), output read
// through a pipe; no python3 means no folders.
inline std::vector<std::string> pythonSitePackages() {
  std::vector<std::string> out;
  int fds[2];
  if (pipe(fds) != 0) return out;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return out;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    close(fds[0]), close(fds[1]);
    const char* code = "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))";
    execlp("python3", "python3", "-c", code, (char*)nullptr);
    _exit(127);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, (size_t)n);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    while (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(line);
    start = end + 1;
  }
  return out;
}

// The places to try, in order: $NCCL_LIBRARY, $NCCL_HOME/lib, the loader path, python wheels.
inline std::vector<std::string> candidates() {
  std::vector<std::string> c;
  const char* lib = std::getenv("NCCL_LIBRARY");
  if (lib && *lib) c.push_back(lib);
  const char* home = std::getenv("NCCL_HOME");
  if (home && *home) c.push_back(std::string(home) + "/lib/libnccl.so.2");
  c.push_back("libnccl.so.2");
  for (const std::string& sp : pythonSitePackages()) c.push_back(sp + "/nvidia/nccl/lib/libnccl.so.2");
  return c;
}

// Looks a symbol up; `missing` collects the names that are absent.
template <typename Fn>
void bind(void* h, const char* name, Fn& fn, std::string& missing) {
  fn = reinterpret_cast<Fn>(dlsym(h, name));
  if (!fn) missing += missing.empty() ? name : std::string(", ") + name;
}

// Binds every entry point of the library at `h`; returns why it is unusable ("" when usable).
inline std::string bindAll(void* h, Api& api) {
  std::string missing;
  bind(h, "ncclGetVersion", api.getVersion, missing);
  bind(h, "ncclGetErrorString", api.getErrorString, missing);
  bind(h, "ncclGetUniqueId", api.getUniqueId, missing);
  bind(h, "ncclCommInitRank", api.commInitRank, missing);
  bind(h, "ncclCommDestroy", api.commDestroy, missing);
  bind(h, "ncclGroupStart", api.groupStart, missing);
  bind(h, "ncclGroupEnd", api.groupEnd, missing);
  bind(h, "ncclAllReduce", api.allReduce, missing);
  bind(h, "ncclBroadcast", api.broadcast, missing);
  bind(h, "ncclAllGather", api.allGather, missing);
  bind(h, "ncclReduceScatter", api.reduceScatter, missing);
  bind(h, "ncclSend", api.send, missing);
  bind(h, "ncclRecv", api.recv, missing);
  if (!missing.empty()) return "lacks " + missing;
  if (api.getVersion(&api.version) != kSuccess) return "ncclGetVersion failed";
  // ncclSend/ncclRecv appeared in 2.7; older libraries cannot run every collective here.
  if (api.version < 2700) return "NCCL " + versionString(api.version) + " is older than 2.7";
  return "";
}

// Opens the first candidate that loads and is usable; a library that loads but is unusable
// (a missing symbol, too old) is closed and the search goes on. Returns false when none is
// usable, with `tried` listing every place and why it failed and `unusable` the count of
// libraries that loaded but could not be used; `tried` also names those passed over before the one
// returned.
inline bool load(Api& api, std::string& tried, int& unusable) {
  unusable = 0;
  for (const std::string& path : candidates()) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string why;
    if (!h) {
      const char* err = dlerror();
      why = err ? err : "not loadable";
      if (why.find("No such file") != std::string::npos) why = "not found";
    } else {
      Api next;
      next.handle = h;
      char resolved[4096] = {0};
      if (dlinfo(h, RTLD_DI_ORIGIN, resolved) == 0 && path.find('/') == std::string::npos) next.path = std::string(resolved) + "/" + path;
      else next.path = path;
      why = bindAll(h, next);
      if (why.empty()) {
        api = next;
        return true;
      }
      unusable++;
      dlclose(h);
    }
    tried += (tried.empty() ? "" : "; ") + path + " (" + why + ")";
  }
  return false;
}

// Closes the library `load` opened.
inline void unload(Api& api) {
  if (api.handle) dlclose(api.handle);
  api = Api();
}

}  // namespace nccl
