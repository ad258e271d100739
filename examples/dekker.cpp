// dekker.cpp - Dekker's entry protocol in C++: std::thread and std::atomic.
//
// Each thread raises its flag, then enters the critical section only if the
// other thread's flag is down. The flags are std::atomic<int>, but stored
// with release and loaded with acquire (or relaxed): that orders a store
// before later stores and a load before later loads, never a store before a
// later load. Under sequential consistency the protocol is correct; on x86
// each thread's flag store waits in its store buffer while the load of the
// other flag goes ahead, so both threads can enter. Seq_cst stores (an
// xchg on x86) drain the buffer and repair it.
//
//   verify --model sc examples/dekker.cpp     -> SAFE
//   verify examples/dekker.cpp                -> VIOLATION (x86-TSO)
//   verify -DSEQ_CST examples/dekker.cpp      -> SAFE (seq_cst flag stores)
#include <atomic>
#include <cassert>
#include <thread>

#ifdef SEQ_CST
constexpr std::memory_order store_order = std::memory_order_seq_cst;
#else
constexpr std::memory_order store_order = std::memory_order_release;
#endif

std::atomic<int> flag0{0}, flag1{0};  // "I want to enter"
std::atomic<int> inside{0};           // threads in the critical section

static void critical_section() {
  // a locked increment: it cannot hide the bug, it only counts
  int before = inside.fetch_add(1);
  assert(before == 0 && "two threads in the critical section");
  inside.fetch_sub(1);
}

static void thread0() {
  flag0.store(1, store_order);
  if (flag1.load(std::memory_order_acquire) == 0) critical_section();
  flag0.store(0, std::memory_order_relaxed);
}

static void thread1() {
  flag1.store(1, store_order);
  if (flag0.load(std::memory_order_acquire) == 0) critical_section();
  flag1.store(0, std::memory_order_relaxed);
}

int main() {
  std::thread t0(thread0), t1(thread1);
  t0.join();
  t1.join();
  return 0;
}
