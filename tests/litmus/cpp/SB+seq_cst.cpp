// SB+seq_cst: SB with seq_cst stores (xchg on x86: locked, the buffer drains), so r0=0 r1=0 is forbidden under every model
// Registers are plain globals read after the joins, as in ../SB+xchg.c.
#include <atomic>
#include <thread>
#include "tsoify.h"
std::atomic<int> x{0}, y{0};            // shared, initially 0
int r0, r1;                             // registers, read by main after join
static void t0() { x.store(1); r0 = y.load(); }
static void t1() { y.store(1); r1 = x.load(); }
int main() {
  std::thread h0(t0), h1(t1);
  h0.join();
  h1.join();
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
