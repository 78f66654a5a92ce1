// libFuzzer target: UCI move reading and writing (N2) on a few fixed positions.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The first byte picks the position; the rest is the move text. An accepted move is
// legal and prints to text that reads back to the same move. Every 16-bit value
// prints without crashing.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "fuzz_check.h"
#include "fuzz_positions.h"

using namespace outpost;
using outpost::fuzz::positions;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size < 1 || size > 64) return 0;
    const Position& pos = positions()[data[0] % positions().size()];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    auto m = move_from_uci(pos, text);
    if (m) {
        FUZZ_CHECK(legal_moves(pos).contains(*m), "'%.*s' accepted but not legal", int(text.size()), text.data());
        const std::string printed = move_to_uci(pos, *m);
        auto back = move_from_uci(pos, printed);
        FUZZ_CHECK(back.ok() && *back == *m, "'%s' does not read back", printed.c_str());
    } else {
        FUZZ_CHECK(!m.error().message.empty(), "empty error");
    }

    if (size >= 3) {
        const Move raw(std::uint16_t(data[1] | (data[2] << 8)));
        (void)move_to_uci(raw, false);
        (void)move_to_uci(raw, true);
        (void)pos.is_legal(raw);
    }
    return 0;
}
