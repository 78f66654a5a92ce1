// libFuzzer target: FEN reading (N1), Setup validation, FEN writing, and the move
// generator on whatever positions are accepted.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// For each input:
//   1. parse_fen + Position::from_setup (both castling modes) never crash; a refusal
//      always says something;
//   2. an accepted position writes FEN in every castling notation that reads back
//      to the same FEN and the same repetition key;
//   3. perft 2 equals the sum of perft_divide and of count_legal_moves after each
//      legal move, and no legal move leaves the mover's king attacked;
//   4. the raw bytes, read as a Setup (piece codes, castling rooks, en passant
//      square, clocks), go through from_setup without crashing.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "fuzz_check.h"

using namespace outpost;

namespace {

void check_position(const Position& pos) {
    const std::string fen = to_fen(pos);
    for (CastlingNotation notation : {CastlingNotation::AUTO, CastlingNotation::X_FEN, CastlingNotation::SHREDDER}) {
        const std::string written = to_fen(pos, notation);
        auto again = position_from_fen(written, pos.is_chess960());
        FUZZ_CHECK(again.ok(), "written FEN '%s' is refused: %s", written.c_str(),
                   again.ok() ? "" : again.error().message.c_str());
        FUZZ_CHECK(to_fen(*again, notation) == written, "'%s' reads back as '%s'", written.c_str(),
                   to_fen(*again, notation).c_str());
        FUZZ_CHECK(again->repetition_key() == pos.repetition_key(), "repetition key changes through '%s'",
                   written.c_str());
        FUZZ_CHECK(to_fen(*again) == fen, "'%s' differs from '%s'", to_fen(*again).c_str(), fen.c_str());
    }

    const MoveList moves = legal_moves(pos);
    FUZZ_CHECK(count_legal_moves(pos) == std::uint64_t(moves.size()), "count_legal_moves differs in '%s'", fen.c_str());
    std::uint64_t sum = 0;
    const Color us = pos.side_to_move();
    for (Move m : moves) {
        const Position next = pos.after(m);
        FUZZ_CHECK(!(next.attackers_to(next.king_square(us)) & next.pieces(~us)), "move %d leaves the king in check in '%s'",
                   int(m.raw()), fen.c_str());
        sum += count_legal_moves(next);
    }
    FUZZ_CHECK(perft(pos, 2) == sum, "perft 2 differs in '%s'", fen.c_str());
    std::uint64_t divided = 0;
    for (const auto& [m, n] : perft_divide(pos, 2)) divided += n;
    FUZZ_CHECK(divided == sum, "perft_divide 2 differs in '%s'", fen.c_str());
}

void fuzz_text(std::string_view text) {
    auto setup = parse_fen(text);
    if (!setup) {
        FUZZ_CHECK(!setup.error().message.empty(), "empty parse error");
        return;
    }
    for (bool chess960 : {false, true}) {
        auto pos = Position::from_setup(*setup, chess960);
        if (!pos) {
            FUZZ_CHECK(!pos.error().message.empty(), "empty validation error");
            continue;
        }
        check_position(*pos);
    }
    auto pos = position_from_fen(text);
    if (pos) check_position(*pos);
}

void fuzz_setup(const std::uint8_t* data, size_t size) {
    if (size < 78) return;
    Setup s;
    for (int i = 0; i < 64; ++i) s.board[size_t(i)] = Piece(data[i] % 17);  // 6, 7, 14, 15 are invalid codes
    s.turn = Color(data[64] & 1);
    std::memcpy(&s.castling_rooks, data + 65, 8);
    s.ep_square = Square(data[73] % 65);
    s.halfmove_clock = int(std::int8_t(data[74])) * 300;
    s.fullmove_number = int(std::int8_t(data[75])) * 300;
    const bool chess960 = data[76] & 1;
    auto pos = Position::from_setup(s, chess960);
    if (!pos) {
        FUZZ_CHECK(!pos.error().message.empty(), "empty validation error");
        return;
    }
    check_position(*pos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size > 4096) return 0;
    fuzz_text(std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz_setup(data, size);
    return 0;
}
