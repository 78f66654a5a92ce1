// libFuzzer target: PGN reading and writing (N4).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The input is read game by game. The reader must make progress (it never returns
// more games than there are bytes) and never crash. Each game it accepts is written
// in the export format, and that text reads back to a game with the same start
// position, main line and result, which writes to the same text again.
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/fen.h"
#include "chess/pgn.h"
#include "chess/uci.h"
#include "fuzz_check.h"

using namespace outpost;

namespace {

void check_game(const PgnGame& game) {
    const std::string written = write_pgn(game);
    (void)write_movetext(game);
    (void)game.final_position();

    auto again = read_pgn_game(written);
    FUZZ_CHECK(again.ok(), "written PGN does not read back: %s\n%s", again.ok() ? "" : again.error().message.c_str(),
               written.c_str());
    FUZZ_CHECK(again->start == game.start, "start position changes:\n%s", written.c_str());
    FUZZ_CHECK(again->mainline() == game.mainline(), "main line changes:\n%s", written.c_str());
    FUZZ_CHECK(again->result == game.result, "result '%s' becomes '%s'", game.result.c_str(), again->result.c_str());
    const std::string rewritten = write_pgn(*again);
    FUZZ_CHECK(rewritten == written, "write(read(write(game))) differs:\n--- first\n%s\n--- second\n%s", written.c_str(),
               rewritten.c_str());

    const auto mainline = game.mainline();
    auto rebuilt = make_pgn_game(game.start, mainline, game.result);
    FUZZ_CHECK(rebuilt.ok(), "make_pgn_game refuses the main line: %s", rebuilt.ok() ? "" : rebuilt.error().message.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size > 16384) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    PgnReader reader(text);
    size_t games = 0;
    while (auto game = reader.next()) {
        ++games;
        FUZZ_CHECK(games <= size + 1, "the reader returned %zu games from %zu bytes", games, size);
        if (game->ok())
            check_game(game->value());
        else
            FUZZ_CHECK(!game->error().message.empty(), "empty error");
    }
    (void)read_pgn_game(text);
    return 0;
}
