// coll_bench's processes: rank, size and local rank from the launcher's environment, and the
// NCCL unique id shared through a bootstrap directory.
#pragma once
#include "common.cuh"
#include "nccl_loader.cuh"

#include <sys/stat.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <ctime>
#include <cstring>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace coll {

// This process's place: global rank, number of processes, local rank on its node.
struct World {
  int proc = 0, nprocs = 1, local = 0;
};

inline int envInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

inline World detectWorld() {
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"}};
  World w;
  for (auto& p : pairs)
    if (std::getenv(p[0]) && std::getenv(p[1])) {
      w.proc = envInt(p[0], 0), w.nprocs = envInt(p[1], 1);
      break;
    }
  w.local = envInt("OMPI_COMM_WORLD_LOCAL_RANK", envInt("MPI_LOCALRANKID", envInt("SLURM_LOCALID", w.proc)));
  return w;
}

// Creates `dir` and any missing parent (like mkdir -p); false when it cannot.
inline bool makeDirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); i++) {
    if (i < dir.size() && dir[i] != '/') continue;
    std::string part = dir.substr(0, i);
    if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

// The launcher's name for this job step, shared by all its processes and new for every launch
// (Slurm job.step, the PMIx namespace of Open MPI 5 / PRRTE, Open MPI 4's job id); "" when
// the processes were started some other way.
inline std::string jobKey() {
  std::string key;
  const char* job = std::getenv("SLURM_JOB_ID");
  const char* step = std::getenv("SLURM_STEP_ID");
  if (job && *job) key = std::string(job) + "." + (step && *step ? step : "0");
  else if (const char* ns = std::getenv("PMIX_NAMESPACE")) key = ns;
  else if (const char* id = std::getenv("OMPI_MCA_ess_base_jobid")) key = id;
  for (char& ch : key)
    if (!std::isalnum((unsigned char)ch) && ch != '.' && ch != '-' && ch != '_') ch = '_';
  return key;
}

// The id file in DIR: nccl-unique-id, or nccl-unique-id.<job key> when the launcher names the
// job step (so a file left by another launch is never read).
inline std::string idPath(const std::string& dir) {
  std::string key = jobKey();
  return dir + "/nccl-unique-id" + (key.empty() ? "" : "." + key);
}

// Rank 0 creates DIR and writes the unique id to the id file (atomically); the others wait for
// it. Called before any GPU is touched, so a rank 0 that fails later never leaves the others
// waiting out the timeout. A file already there belongs to an earlier launch: rank 0 refuses
// it, and the other ranks refuse one older than the bootstrap timeout when they start (a file
// this launch's rank 0 wrote is younger than that); both exit 5 with the file named.
inline nccl::UniqueId bootstrapId(const World& w, const std::string& dir, long timeoutS) {
  nccl::UniqueId id;
  if (w.nprocs == 1) {
    NCCL_CHECK(api.getUniqueId(&id));
    return id;
  }
  if (dir.empty()) gc::die(gc::kUsage, "%d processes: --bootstrap DIR is required", w.nprocs);
  std::string path = idPath(dir);
  struct stat st;
  bool exists = stat(path.c_str(), &st) == 0;
  if (w.proc == 0) {
    if (exists)
      gc::die(gc::kNcclError, "bootstrap: %s already exists (left by an earlier launch): use a fresh --bootstrap DIR or remove the file", path.c_str());
    NCCL_CHECK(api.getUniqueId(&id));
    if (!makeDirs(dir)) gc::die(gc::kNcclError, "bootstrap: cannot create %s: %s", dir.c_str(), std::strerror(errno));
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f || std::fwrite(&id, sizeof id, 1, f) != 1 || std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0)
      gc::die(gc::kNcclError, "bootstrap: cannot write %s", path.c_str());
    return id;
  }
  long age = exists ? (long)(std::time(nullptr) - st.st_mtime) : 0;
  if (exists && age > timeoutS)
    gc::die(gc::kNcclError, "bootstrap: %s is %ld s old, older than the bootstrap timeout (%ld s): left by an earlier launch; use a fresh --bootstrap DIR or remove the file", path.c_str(), age, timeoutS);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutS);
  while (std::chrono::steady_clock::now() < deadline) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f) {
      size_t got = std::fread(&id, sizeof id, 1, f);
      std::fclose(f);
      if (got == 1) return id;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  gc::die(gc::kNcclError, "bootstrap: no unique id in %s after %ld s (is rank 0 running?)", path.c_str(), timeoutS);
}

}  // namespace coll
