// misuse.cpp - what the C++ library answers with an exception or
// std::terminate, which a program built without exceptions dies of: each
// is a violation (abort) with the reason.
//   -DJOIN_TWICE   join a thread that was joined already
//   -DNOT_JOINED   destroy a std::thread that is still joinable
#include <thread>

int x;

int main() {
  std::thread t([] { x = 1; });
#ifdef JOIN_TWICE
  t.join();
  t.join();
#elif defined(NOT_JOINED)
  // no join: ~thread calls std::terminate
#else
  t.join();
#endif
  return 0;
}
