// sync.cpp - more of <mutex>, <shared_mutex>, <condition_variable> and
// <thread>: std::scoped_lock over two mutexes taken in opposite orders (it
// avoids the deadlock), std::shared_mutex with unique_lock and shared_lock,
// wait_until with a predicate, sleep_until, try_lock, and a moved
// std::thread. Safe and race-free under every model.
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <thread>
std::mutex a, b;
std::shared_mutex sm;
std::condition_variable cv;
int x, y, shared_v;
bool go;
int main() {
  std::thread t1([] { std::scoped_lock l(a, b); x++; y++; });
  std::thread t2([] { std::scoped_lock l(b, a); x++; y++; });
  std::thread w([] { std::unique_lock<std::shared_mutex> l(sm); shared_v = 1; });
  { std::shared_lock<std::shared_mutex> l(sm); int v = shared_v; assert(v == 0 || v == 1); }
  std::thread s([] { std::this_thread::sleep_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(5)); { std::lock_guard<std::mutex> g(a); go = true; } cv.notify_one(); });
  {
    std::unique_lock<std::mutex> l(a);
    cv.wait_until(l, std::chrono::steady_clock::now() + std::chrono::seconds(1), [] { return go; });
  }
  std::thread moved = std::move(t1);
  assert(!t1.joinable() && moved.joinable());
  moved.join(); t2.join(); w.join(); s.join();
  assert(x == 2 && y == 2);
  if (a.try_lock()) a.unlock();
  return 0;
}
