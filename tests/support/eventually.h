// Outpost — waiting in a test for what another thread or process does: true as soon as
// `f()` is, checked every 2 ms; false if it is still not after `within`.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <thread>

namespace outpost::test {

template <class F>
bool eventually(F f, std::chrono::milliseconds within = std::chrono::seconds(5)) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (f()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return f();
}

}  // namespace outpost::test
