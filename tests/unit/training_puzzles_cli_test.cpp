// Issue 29 item 1: `outpost puzzles make` on small PGN files and on a server's
// database, run as a process: the header and the puzzles, GameUrl for each input,
// duplicates once, Chess960 and bad games skipped with file, game and reason, an
// unreadable file refused.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "server/stores/game_store.h"

namespace {

struct MakeRun {
    int status = 0;
    std::string out, err;
};

std::string temp_path(const std::string& name) {
    return (std::filesystem::path(::testing::TempDir()) / ("puzzles-cli-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

MakeRun run(const std::string& args) {
    const std::string err_path = temp_path("stderr");
    const std::string cmd = std::string(OUTPOST_BINARY) + " puzzles make --nodes 60000 --scan-nodes 5000 " + args +
                            " 2>" + err_path;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    MakeRun r;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
    r.status = ::pclose(pipe);
    r.err = slurp(err_path);
    std::remove(err_path.c_str());
    return r;
}

int count_lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

const char* Header = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";

// Game 1: 3...Nf6?? 4.Qxf7#. Game 2: no moves. Game 3: does not parse. Game 4: the
// same blunder again (a duplicate). Game 5: Chess960.
const char* Pgn = R"([Event "one"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "empty"]
[Result "*"]

*

[Event "bad"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "again"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "960"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[SetUp "1"]
[Result "*"]

1. e4 e5 *

)";

TEST(PuzzlesMakeCli, Issue29_PgnGamesBadGamesAndDuplicates) {
    const std::string pgn = temp_path("games.pgn");
    std::ofstream(pgn) << Pgn;
    const MakeRun r = run(pgn);
    std::remove(pgn.c_str());
    EXPECT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(r.out.rfind(Header, 0), 0u) << r.out;
    EXPECT_EQ(count_lines(r.out), 2) << r.out;  // the header and one puzzle: game 4 repeats game 1
    EXPECT_NE(r.out.find(",g8f6 h5f7,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(pgn + "#1:6"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find(pgn + ": game 2: skipped: the game has no moves"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(pgn + ": game 3: skipped:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(pgn + ": game 5: skipped: Chess960"), std::string::npos) << r.err;
}

TEST(PuzzlesMakeCli, Issue29_UnreadableFileIsRefused) {
    const MakeRun r = run(temp_path("no-such-file.pgn"));
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("cannot open " + temp_path("no-such-file.pgn")), std::string::npos) << r.err;
}

TEST(PuzzlesMakeCli, Issue29_EitherDbOrFiles) {
    EXPECT_NE(run("").status, 0);
}

TEST(PuzzlesMakeCli, Issue29_FinishedGamesOfADatabase) {
    using namespace outpost::server;
    const std::string db = temp_path("games.db");
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    {
        auto store = std::move(Storage::open(db).value());
        auto game = [](const std::string& id, const std::string& status, const std::string& result) {
            StoredGame g;
            g.id = id;
            g.white_kind = g.black_kind = "human";
            g.white_name = g.black_name = "Anna";
            g.time_control = "-";
            g.variant = "standard";
            g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
            g.status = status;
            g.result = result;
            int ply = 0;
            for (const char* u : {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"})
                g.moves.push_back(StoredMove{++ply, u, 0, 0, 0, -1});
            return g;
        };
        // Finished, ongoing (not read), aborted (no result: not read).
        ASSERT_TRUE(store->write({GameWrite{GameWrite::INSERT_GAME, game("fin1", "checkmate", "1-0"), {}, 0}}).ok());
        auto ongoing = game("live1", "ongoing", "*");
        ongoing.moves.resize(6);
        ASSERT_TRUE(store->write({GameWrite{GameWrite::INSERT_GAME, ongoing, {}, 0}}).ok());
        ASSERT_TRUE(store->write({GameWrite{GameWrite::INSERT_GAME, game("ab1", "aborted", "*"), {}, 0}}).ok());
        auto ids = store->finished_standard_game_ids();
        ASSERT_TRUE(ids.ok());
        ASSERT_EQ(ids->size(), 1u);
        EXPECT_EQ((*ids)[0], "fin1");
    }
    const std::string out = temp_path("out.csv");
    const MakeRun r = run("--db " + db + " -o " + out);
    const std::string csv = slurp(out);
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    std::remove(out.c_str());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_EQ(csv.rfind(Header, 0), 0u) << csv;
    EXPECT_EQ(count_lines(csv), 2) << csv;
    EXPECT_NE(csv.find(",/#/game/fin1?ply=6,"), std::string::npos) << csv;
}

}  // namespace
