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

using namespace outpost;

namespace {

const std::vector<Position>& positions() {
    static const std::vector<Position> all = [] {
        std::vector<Position> v;
        const std::pair<const char*, bool> fens[] = {
            {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
            {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},  // Kiwipete
            {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", true},
            {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},                              // promotions
            {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},        // en passant
            {"r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1", true},                                     // 960 castling
            {"4k3/8/8/8/8/8/8/5K1R w H - 0 1", true},                                         // king step vs castle
        };
        for (auto [fen, c960] : fens) v.push_back(position_from_fen(fen, c960).value());
        return v;
    }();
    return all;
}

}  // namespace

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
