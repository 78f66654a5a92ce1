// libFuzzer target: Standard Algebraic Notation (N3, R17).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two modes, chosen by the first byte:
//   even: the rest is SAN text read in one of a few fixed positions; an accepted
//         move is legal, and its SAN (written exactly) reads back to it;
//   odd:  the rest drives a game from one of those positions (each byte picks a
//         legal move); at every ply every legal move's SAN reads back to the move,
//         and writing with localised letters and figurines does not crash.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/uci.h"
#include "fuzz_check.h"
#include "fuzz_positions.h"

using namespace outpost;
using outpost::fuzz::positions;

namespace {

void check_all_moves(const Position& pos) {
    for (Move m : legal_moves(pos)) {
        const std::string san = move_to_san(pos, m);
        auto back = move_from_san(pos, san);
        FUZZ_CHECK(back.ok(), "SAN '%s' of %s in '%s' is refused: %s", san.c_str(), move_to_uci(pos, m).c_str(),
                   to_fen(pos).c_str(), back.ok() ? "" : back.error().message.c_str());
        FUZZ_CHECK(*back == m, "SAN '%s' of %s in '%s' reads as %s", san.c_str(), move_to_uci(pos, m).c_str(),
                   to_fen(pos).c_str(), move_to_uci(pos, *back).c_str());
        (void)move_to_san(pos, m, SanOptions::figurines());
        (void)move_to_san(pos, m, SanOptions::with(ChineseLetters));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size < 2 || size > 512) return 0;
    const Position& start = positions()[(data[1] >> 1) % positions().size()];
    if ((data[0] & 1) == 0) {
        const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
        auto m = move_from_san(start, text);
        if (!m) {
            FUZZ_CHECK(!m.error().message.empty(), "empty error");
            return 0;
        }
        FUZZ_CHECK(legal_moves(start).contains(*m), "'%.*s' accepted but not legal", int(text.size()), text.data());
        const std::string san = move_to_san(start, *m);
        auto back = move_from_san(start, san);
        FUZZ_CHECK(back.ok() && *back == *m, "'%s' (from '%.*s') does not read back", san.c_str(), int(text.size()),
                   text.data());
        return 0;
    }
    Position pos = start;
    check_all_moves(pos);
    // At most 64 plies: each ply checks every legal move, which is slow under ASan.
    for (size_t i = 2; i < size && i < 66; ++i) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        pos.do_move(moves[data[i] % moves.size()]);
        check_all_moves(pos);
    }
    return 0;
}
