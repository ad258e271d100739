// producer-consumer.cpp - a bounded queue guarded by std::mutex, with two
// std::condition_variables: correct under SC, x86-TSO and PSO.
//
// The producer puts ITEMS values into a ring of SLOTS places, the consumer
// takes them out and checks that each arrives once and in order. Every
// access to the queue is under the mutex (std::lock_guard, std::unique_lock),
// and mutex calls are full fences, so no store buffer can show a stale slot.
//
// Each wait re-checks its condition (wait with a predicate). With -DBUG the
// consumer waits once, without re-checking (`if`, not `while`): a wakeup
// that is spurious, or that another consumer's take made stale, lets it take
// from an empty queue. C++ (like POSIX) allows spurious wakeups, so verify
// finds it under every model:
//
//   verify examples/producer-consumer.cpp            -> SAFE
//   verify -DBUG examples/producer-consumer.cpp      -> VIOLATION
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>

constexpr int SLOTS = 2, ITEMS = 3;

std::mutex m;
std::condition_variable not_empty, not_full;
int ring[SLOTS];
int head, count;  // the oldest item, and how many there are

static void producer() {
  for (int i = 1; i <= ITEMS; i++) {
    std::unique_lock<std::mutex> lock(m);
    not_full.wait(lock, [] { return count < SLOTS; });
    ring[(head + count) % SLOTS] = i;
    count++;
    not_empty.notify_one();
  }
}

static void consumer() {
  for (int want = 1; want <= ITEMS; want++) {
    std::unique_lock<std::mutex> lock(m);
#ifdef BUG
    if (count == 0) not_empty.wait(lock);
#else
    not_empty.wait(lock, [] { return count > 0; });
#endif
    assert(count > 0 && "take from an empty queue");
    int got = ring[head];
    head = (head + 1) % SLOTS;
    count--;
    assert(got == want && "items arrive once and in order");
    not_full.notify_all();
  }
}

int main() {
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  std::lock_guard<std::mutex> lock(m);
  assert(count == 0 && head == ITEMS % SLOTS);
  return 0;
}
