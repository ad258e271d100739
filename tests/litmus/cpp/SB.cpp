// SB: store buffering with relaxed std::atomic: each store may still be buffered when the other thread loads (TSO/PSO, not SC)
// Registers are plain globals read after the joins, as in ../SB.c.
#include <atomic>
#include <thread>
#include "tsoify.h"
std::atomic<int> x{0}, y{0};            // shared, initially 0
int r0, r1;                             // registers, read by main after join
static void t0() { x.store(1, std::memory_order_relaxed); r0 = y.load(std::memory_order_relaxed); }
static void t1() { y.store(1, std::memory_order_relaxed); r1 = x.load(std::memory_order_relaxed); }
int main() {
  std::thread h0(t0), h1(t1);
  h0.join();
  h1.join();
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
