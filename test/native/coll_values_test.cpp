// Host-compiled check of native/coll_values.h and native/p2p_plan.h (run by coll-values.test.ts).
// Emulates each collective by moving and reducing values the way NCCL does, in each data type
// (integers wrap, half/bfloat16/float round after every operation, avg is NCCL's integer
// quotient or premultiplied sum), then counts what the bench's check (wrongAt) flags:
//   correct KIND TYPE OP NRANKS ORDER WRONG TOTAL   a correct output (must be 0 wrong)
//   misroute NAME TYPE OP WRONG TOTAL               a misrouted output (must be > 0 wrong)
//   avg-poison|avg-zero KIND TYPE NRANKS WRONG TOTAL  an unwritten or zeroed integer avg
//   counts / shift / gpu / batch / chunk lines     the geometry helpers on chosen inputs
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>
#include "coll_values.h"
#include "p2p_plan.h"

using namespace coll;

namespace {

const char* kKinds[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall", "sendrecv"};
const char* kTypes[] = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16"};
const char* kOps[] = {"sum", "prod", "max", "min", "avg"};

bool isInt(int type) { return mantissaBits(type) == 0; }

// x stored in `type`: integers wrap to their width; floats round to nearest even.
double store(int type, double x) {
  if (isInt(type)) {
    int bits = typeSize(type) * 8;
    bool sign = type == TInt8 || type == TInt32 || type == TInt64;
    uint64_t u = (uint64_t)(int64_t)x;
    if (bits < 64) u &= (1ull << bits) - 1;
    if (sign && bits < 64 && (u >> (bits - 1))) return (double)(int64_t)(u | ~((1ull << bits) - 1));
    return sign ? (double)(int64_t)u : (double)u;
  }
  if (x == 0 || std::isnan(x)) return x;
  int e;
  std::frexp(x, &e);
  double q = std::ldexp(1.0, e - mantissaBits(type));
  return std::nearbyint(x / q) * q;
}

// The 0xff poison as each type reads it.
double poison(int type) {
  if (!isInt(type)) return NAN;
  bool sign = type == TInt8 || type == TInt32 || type == TInt64;
  return sign ? -1.0 : std::ldexp(1.0, typeSize(type) * 8) - 1;
}

typedef std::vector<std::vector<double>> Bufs;  // [rank][element]

// NCCL's reduction of one element over the ranks' inputs, visiting ranks in `order`.
double reduceAt(int type, int op, const Bufs& in, size_t i, const std::vector<int>& order) {
  int n = (int)in.size();
  double scale = store(type, 1.0 / n);
  auto pre = [&](double x) { return op == OpAvg && !isInt(type) ? store(type, x * scale) : x; };
  double acc = pre(in[order[0]][i]);
  for (size_t k = 1; k < order.size(); k++) {
    double v = pre(in[order[k]][i]);
    if (op == OpSum || op == OpAvg) acc = store(type, acc + v);
    else if (op == OpProd) acc = store(type, acc * v);
    else if (op == OpMax) acc = acc > v ? acc : v;
    else acc = acc < v ? acc : v;
  }
  if (op == OpAvg && isInt(type)) acc = std::trunc(acc / n);
  return acc;
}

// Each rank's output of one collective, emulated by moving and reducing the inputs.
Bufs emulate(int kind, int type, int op, int nranks, int root, const Counts& c, const std::vector<int>& order) {
  Bufs in(nranks), out(nranks, std::vector<double>(c.recvElems, poison(type)));
  for (int r = 0; r < nranks; r++)
    for (size_t i = 0; i < c.sendElems; i++) in[r].push_back(store(type, inputValue(op, r, nranks, i)));
  std::vector<double> red;  // the reduction at each send index, the same on every rank
  if (kind == AllReduce || kind == ReduceScatter)
    for (size_t i = 0; i < c.sendElems; i++) red.push_back(reduceAt(type, op, in, i, order));
  for (int r = 0; r < nranks; r++)
    for (size_t i = 0; i < c.recvElems; i++) {
      size_t j = i / c.per, k = i % c.per;
      switch (kind) {
        case AllReduce: out[r][i] = red[i]; break;
        case ReduceScatter: out[r][i] = red[(size_t)r * c.per + i]; break;
        case AllGather: out[r][i] = in[j][k]; break;
        case Broadcast: out[r][i] = in[root][i]; break;
        case Alltoall: out[r][i] = in[j][(size_t)r * c.per + k]; break;
        default: out[r][i] = in[(r + nranks - 1) % nranks][i];
      }
    }
  return out;
}

// Wrong elements over every rank's output, as the bench's check kernel counts them.
unsigned long wrong(int kind, int type, int op, int nranks, int root, const Counts& c, const Bufs& out, size_t& total) {
  unsigned long bad = 0;
  total = 0;
  for (int r = 0; r < nranks; r++) {
    CheckSpec s{kind, type, op, r, nranks, root, c.per};
    for (size_t i = 0; i < c.recvElems; i++, total++) bad += wrongAt(s, i, out[r][i]) ? 1 : 0;
  }
  return bad;
}

std::vector<int> ranks(int n, bool reverse) {
  std::vector<int> v;
  for (int r = 0; r < n; r++) v.push_back(reverse ? n - 1 - r : r);
  return v;
}

const size_t kBytes = 4096;  // every type holds ≥ 512 elements: 32 per block at 16 ranks

void correct() {
  for (int kind = 0; kind < 6; kind++)
    for (int type = 0; type < 10; type++)
      for (int op = 0; op < 5; op++) {
        bool reduces = kind == AllReduce || kind == ReduceScatter;
        if (!reduces && op != OpSum) continue;
        for (int n = 1; n <= 16; n++)
          for (int rev = 0; rev < 2; rev++) {
            Counts c = caseCounts(kind, type, n, kBytes);
            int root = n - 1;
            size_t total;
            unsigned long w = wrong(kind, type, op, n, root, c, emulate(kind, type, op, n, root, c, ranks(n, rev)), total);
            std::printf("correct %s %s %s %d %s %lu %zu\n", kKinds[kind], kTypes[type], kOps[op], n, rev ? "descending" : "ascending", w, total);
          }
      }
}

// One misrouting: the correct output of (kind, type, op) on 8 ranks, altered by `alter`.
void misroute(const char* name, int kind, int op, int root, const std::function<void(Bufs&, const Counts&, int type)>& alter) {
  const int n = 8;
  for (int type = 0; type < 10; type++) {
    Counts c = caseCounts(kind, type, n, kBytes);
    Bufs out = emulate(kind, type, op, n, 0, c, ranks(n, false));
    alter(out, c, type);
    size_t total;
    unsigned long w = wrong(kind, type, op, n, root, c, out, total);
    std::printf("misroute %s %s %s %lu %zu\n", name, kTypes[type], kOps[op], w, total);
  }
}

void misroutes() {
  misroute("all_gather-blocks-1-5-swapped", AllGather, OpSum, 0, [](Bufs& out, const Counts& c, int) {
    for (auto& o : out)
      for (size_t k = 0; k < c.per; k++) std::swap(o[1 * c.per + k], o[5 * c.per + k]);
  });
  misroute("all_gather-blocks-shifted-by-4", AllGather, OpSum, 0, [](Bufs& out, const Counts& c, int) {
    for (auto& o : out) {
      std::vector<double> was = o;
      for (size_t i = 0; i < o.size(); i++) o[i] = was[(i / c.per) * c.per + (i % c.per + 4) % c.per];
    }
  });
  misroute("sendrecv-rank-5-from-0-not-4", Sendrecv, OpSum, 0, [](Bufs& out, const Counts& c, int type) {
    for (size_t i = 0; i < c.recvElems; i++) out[5][i] = store(type, inputValue(OpSum, 0, 8, i));
  });
  misroute("broadcast-from-root-4-not-0", Broadcast, OpSum, 0, [](Bufs& out, const Counts& c, int type) {
    for (auto& o : out)
      for (size_t i = 0; i < c.recvElems; i++) o[i] = store(type, inputValue(OpSum, 4, 8, i));
  });
  for (int op = 0; op < 5; op++)
    misroute("all_reduce-without-rank-4", AllReduce, op, 0, [op](Bufs& out, const Counts& c, int type) {
      Bufs in(8);
      for (int r = 0; r < 8; r++)
        for (size_t i = 0; i < c.sendElems; i++) in[r].push_back(store(type, inputValue(op, r, 8, i)));
      std::vector<int> seven = {0, 1, 2, 3, 5, 6, 7};
      for (auto& o : out)
        for (size_t i = 0; i < c.recvElems; i++) o[i] = reduceAt(type, op, in, i, seven);  // avg still divides by 8
    });
}

void integerAvg() {
  for (int kind : {AllReduce, ReduceScatter})
    for (int type = 0; type < 10; type++) {
      if (!isInt(type)) continue;
      for (int n : {2, 3, 8, 16}) {
        Counts c = caseCounts(kind, type, n, kBytes);
        for (int zero = 0; zero < 2; zero++) {
          Bufs out(n, std::vector<double>(c.recvElems, zero ? 0.0 : poison(type)));
          size_t total;
          unsigned long w = wrong(kind, type, OpAvg, n, 0, c, out, total);
          std::printf("%s %s %s %d %lu %zu\n", zero ? "avg-zero" : "avg-poison", kKinds[kind], kTypes[type], n, w, total);
        }
      }
    }
}

void geometry() {
  for (int kind : {AllReduce, AllGather, ReduceScatter, Alltoall})
    for (int type : {TInt8, THalf, TFloat, TDouble}) {
      Counts c = caseCounts(kind, type, 8, 1000);
      std::printf("counts %s %s 8 1000 %zu %zu %zu %zu\n", kKinds[kind], kTypes[type], c.count, c.per, c.sendElems, c.recvElems);
    }
  for (size_t it = 0; it < 5; it++) std::printf("shift %zu 4096 10000 %zu\n", it, iterShift(it, 4096, 10000));
  std::printf("shift 3 20000 10000 %zu\n", iterShift(3, 20000, 10000));
  long cases[][3] = {{0, 1, 8}, {3, 1, 8}, {2, 1, 2}, {3, 1, 2}, {1, 2, 4}, {1, 2, 2}, {5, 2, 4}, {0, 4, 2}};
  for (auto& g : cases) std::printf("gpu %ld %ld %ld %ld\n", g[0], g[1], g[2], firstGpu(g[0], g[1], g[2]));
  double perCopy[] = {2e-6, 13.7e-6, 1e-9, 30e-6};
  for (double t : perCopy) {
    long k = 1, steps = 0;
    for (long next; (next = p2p::nextBatch(k, t * (double)k)) != 0; steps++) k = next;
    std::printf("batch %g %ld %ld\n", t, k, steps);
  }
  size_t sum = 0;
  for (size_t k = 0; k < p2p::chunkCount(5u << 20, 2u << 20); k++) sum += p2p::chunkBytes(5u << 20, 2u << 20, k);
  std::printf("chunk %zu %zu\n", p2p::chunkCount(5u << 20, 2u << 20), sum);
}

}  // namespace

int main() {
  correct();
  misroutes();
  integerAvg();
  geometry();
  return 0;
}
