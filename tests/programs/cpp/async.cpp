// async.cpp - std::async and futures are not modelled: refused, naming
// std::async and the line that calls it.
#include <future>

static int answer() { return 42; }

int main() {
  auto f = std::async(std::launch::async, answer);
  return f.get() == 42 ? 0 : 1;
}
