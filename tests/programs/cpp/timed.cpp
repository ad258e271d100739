// timed.cpp - condition_variable::wait_for, std::this_thread::sleep_for and
// steady_clock: time is a virtual clock that stands still except where the
// program waits for it (a timed wait that times out reaches its deadline, a
// sleep moves it on by the time slept), so every execution replays alike.
// A timed wait may always time out. The waiter takes wait_for's answer for
// what it is; with -DTRUST_TIMEOUT it assumes the setter always comes within
// the second, which a timeout refutes.
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace std::chrono;

std::mutex m;
std::condition_variable cv;
bool ready;

int main() {
  auto start = steady_clock::now();
  std::thread setter([] {
    auto before = steady_clock::now();
    std::this_thread::sleep_for(milliseconds(1));
    assert(steady_clock::now() - before >= milliseconds(1));
    std::lock_guard<std::mutex> g(m);
    ready = true;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> l(m);
  bool ok = cv.wait_for(l, seconds(1), [] { return ready; });
#ifdef TRUST_TIMEOUT
  assert(ready && "the setter came within the second");
#else
  assert(ok == ready);
  if (!ok) assert(steady_clock::now() - start >= seconds(1));
#endif
  l.unlock();
  setter.join();
  return 0;
}
