// libFuzzer target: the time-control parser (C2, C3). AddressSanitizer found
// parse_time_control("/1d") reading before the text; the input sits in a heap block of
// exactly its size, so any read outside it is caught. An accepted control prints to a
// text that parses back to the same control; its PGN tag and class never crash.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "chess/clock.h"
#include "fuzz_check.h"

using namespace outpost;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size > 256) return 0;
    auto copy = std::make_unique<char[]>(size ? size : 1);
    if (size) std::memcpy(copy.get(), data, size);
    const std::string_view text(copy.get(), size);
    auto tc = parse_time_control(text);
    if (!tc.ok()) {
        FUZZ_CHECK(!tc.error().message.empty(), "an error without words for '%.*s'", int(size), copy.get());
        return 0;
    }
    const std::string printed = tc.value().to_string();
    auto again = parse_time_control(printed);
    FUZZ_CHECK(again.ok(), "'%s' (printed from '%.*s') does not parse", printed.c_str(), int(size), copy.get());
    FUZZ_CHECK(again.value() == tc.value(), "'%.*s' -> '%s' reads back differently", int(size), copy.get(), printed.c_str());
    (void)tc.value().to_pgn();
    (void)time_class_name(tc.value().classify());
    // A clock with this control runs a few moves without crashing.
    Millis now = 0;
    Clock clock(tc.value(), [&now] { return now; });
    clock.start(WHITE);
    for (int i = 0; i < 4; ++i) {
        now += 1000;
        (void)clock.press(i % 2 ? BLACK : WHITE, 50);
        (void)clock.remaining(WHITE);
    }
    return 0;
}
