// Outpost — tokens that guard seats: from the operating system's cryptographic source.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Seat tokens and game ids used to come from std::mt19937_64: its state can be
// recovered from a few hundred outputs (the tokens of games an attacker creates
// itself), and every later token predicted. getrandom(2) cannot be predicted.
#pragma once

#include <string>

namespace outpost::server {

// `length` characters of [A-Za-z0-9], each uniform (rejection sampling, no modulo
// bias): log2(62) = 5.95 bits a character, so 22 characters carry 131 bits.
// Throws std::runtime_error if the system's random source fails (it does not on Linux
// after boot; a token that could be guessed would be worse than an error).
std::string secure_token(int length);

}  // namespace outpost::server
