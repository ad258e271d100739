// throw.cpp - a C++ exception: refused, with its line (tsoify does not
// model exceptions).
#include <stdexcept>
#include <thread>

int x;

static void check() {
  if (x != 0) throw std::runtime_error("x changed");
}

int main() {
  std::thread t(check);
  x = 1;
  t.join();
  return 0;
}
