// threads.cpp - std::thread beyond the plain function: arguments by value
// and by std::ref, a lambda with captures, a vector of threads (moved
// thread objects, operator new and delete), detach, and
// std::this_thread::yield and get_id. Safe under every model: each thread
// writes its own slot, and join orders it before main's reads.
#include <cassert>
#include <functional>
#include <thread>
#include <vector>

int slot[4];
int seen_by_detached;

static void put(int i, int v) { slot[i] = v; }
static void add(int &r, int v) { r += v; }

int main() {
  int local = 1;
  std::thread a(put, 0, 10);
  std::thread b(add, std::ref(local), 2);
  std::thread c([&local] { (void)local; slot[1] = 11; });
  a.join();
  b.join();
  c.join();
  assert(local == 3 && slot[0] == 10 && slot[1] == 11);

  std::vector<std::thread> ts;
  for (int i = 2; i < 4; i++) ts.emplace_back([i] { std::this_thread::yield(); slot[i] = 10 + i; });
  for (auto &t : ts) t.join();
  assert(slot[2] == 12 && slot[3] == 13);
  for (auto &t : ts) assert(!t.joinable());

  std::thread d([] { seen_by_detached = 1; });
  assert(d.get_id() != std::this_thread::get_id());
  d.detach();
  assert(!d.joinable());
  return 0;
}
