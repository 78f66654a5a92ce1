// Outpost — a test's stand-in for HubEnv::random_token: a letter, a counter, and a pad
// ('x') up to the length asked, so that tests can tell the tokens apart and read them. Built
// by appending to a string of one letter: g++ 12 warns of a false overflow
// (-Wstringop-overflow in char_traits' memcpy) for "t" + std::to_string(n) in a lambda.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>

namespace outpost::test {

inline std::string counted_token(char letter, long number, int length, char pad = 'x') {
    std::string s(1, letter);
    s += std::to_string(number);
    if (int(s.size()) < length) s.resize(std::size_t(length), pad);
    return s;
}

}  // namespace outpost::test
