// atomics.cpp - std::atomic<T> with every memory order and operation, and
// std::atomic_thread_fence: a test-and-set lock (exchange acquire, store
// release), a compare-exchange lock (strong and weak, acq_rel/acquire), a
// counter (fetch_add relaxed, fetch_sub/fetch_or/fetch_and/fetch_xor
// seq_cst), a 64-bit and a pointer atomic, atomic_flag, and fences of each
// order. Each critical section is exclusive under SC, TSO and PSO.
// -DRELAXED_LOCK takes the test-and-set lock with a plain relaxed load and
// store instead of an exchange: two threads can then both enter (under SC
// already).
#include <atomic>
#include <cassert>
#include <cstdint>
#include <thread>

std::atomic<int> tas{0}, cas{0}, counter{0};
std::atomic<int> inside[2];  // threads in each lock's critical section
std::atomic<std::uint64_t> wide{0};
std::atomic<int *> ptr{nullptr};
std::atomic_flag flag = ATOMIC_FLAG_INIT;
int data[2];  // each guarded by one lock

static void enter(std::atomic<int> &lock, int how, int which) {
  if (how == 0) {
#ifdef RELAXED_LOCK
    while (lock.load(std::memory_order_relaxed) != 0) {}
    lock.store(1, std::memory_order_relaxed);
#else
    while (lock.exchange(1, std::memory_order_acquire) != 0) {}
#endif
  } else if (how == 1) {
    int expected = 0;
    while (!lock.compare_exchange_strong(expected, 1, std::memory_order_acq_rel, std::memory_order_acquire)) expected = 0;
  } else {
    int expected = 0;
    while (!lock.compare_exchange_weak(expected, 1, std::memory_order_seq_cst, std::memory_order_relaxed)) expected = 0;
  }
  int before = inside[which].fetch_add(1, std::memory_order_relaxed);
  assert(before == 0 && "two threads inside");
}

static void leave(std::atomic<int> &lock, int which) {
  inside[which].fetch_sub(1, std::memory_order_seq_cst);
  lock.store(0, std::memory_order_release);
}

static void worker(int id) {
  enter(tas, 0, 0);
  data[0]++;
  leave(tas, 0);
  enter(cas, 1 + id, 1);
  data[1]++;
  leave(cas, 1);
  counter.fetch_add(1, std::memory_order_relaxed);
  counter.fetch_or(0, std::memory_order_acq_rel);
  counter.fetch_and(~0, std::memory_order_consume == std::memory_order_acquire ? std::memory_order_acquire : std::memory_order_release);
  counter.fetch_xor(0);
  wide.fetch_add(std::uint64_t(1) << 40);
  ptr.store(&data[id], std::memory_order_release);
  while (flag.test_and_set(std::memory_order_acquire)) {}
  flag.clear(std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_acquire);
  std::atomic_thread_fence(std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_acq_rel);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

int main() {
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  assert(data[0] == 2 && data[1] == 2);
  assert(counter.load(std::memory_order_acquire) == 2);
  assert(wide.load(std::memory_order_relaxed) == std::uint64_t(2) << 40);
  int *p = ptr.load(std::memory_order_consume);
  assert(p == &data[0] || p == &data[1]);
  return 0;
}
