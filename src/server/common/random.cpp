// Outpost — tokens from getrandom(2).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>

namespace outpost::server {

std::string secure_token(int length) {
    static constexpr char Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    // 248 = 4 x 62: bytes below it map to the alphabet evenly; the rest are drawn again.
    constexpr unsigned Accept = 248;
    std::string s;
    s.reserve(size_t(std::max(0, length)));
    unsigned char bytes[64];
    while (int(s.size()) < length) {
        ssize_t got = getrandom(bytes, sizeof bytes, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("getrandom failed: no secure random source for tokens");
        }
        for (ssize_t i = 0; i < got && int(s.size()) < length; ++i)
            if (bytes[i] < Accept) s += Alphabet[bytes[i] % 62];
    }
    return s;
}

}  // namespace outpost::server
