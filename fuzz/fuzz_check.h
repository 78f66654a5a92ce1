// Outpost fuzzing: a check that stops the fuzzer with a message (libFuzzer then
// saves the input as a crash artifact).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, ...)                                                 \
    do {                                                                      \
        if (!(cond)) {                                                        \
            std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond,    \
                         __FILE__, __LINE__);                                 \
            std::fprintf(stderr, __VA_ARGS__);                                \
            std::fprintf(stderr, "\n");                                       \
            std::abort();                                                     \
        }                                                                     \
    } while (0)
