// Outpost — UCI protocol sessions (E1): driven in-process through UciSession, and
// once end to end through the `outpost uci` binary.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "chess/fen.h"
#include "chess/uci.h"
#include "engine/skill.h"
#include "engine/uci_protocol.h"

using namespace outpost;
using namespace outpost::engine;
using namespace std::chrono_literals;

namespace {

// Collects the session's output lines and lets a test wait for one.
class Transcript {
public:
    UciSession::Output sink() {
        return [this](std::string_view line) {
            std::lock_guard lock(m_);
            lines_.emplace_back(line);
            cv_.notify_all();
        };
    }
    // Waits for a line starting with prefix after index `from`; returns its index or -1.
    int wait_for(const std::string& prefix, std::chrono::milliseconds timeout, std::size_t from = 0) {
        std::unique_lock lock(m_);
        int found = -1;
        cv_.wait_for(lock, timeout, [&] {
            for (std::size_t i = from; i < lines_.size(); ++i)
                if (lines_[i].rfind(prefix, 0) == 0) {
                    found = int(i);
                    return true;
                }
            return false;
        });
        return found;
    }
    std::vector<std::string> lines() {
        std::lock_guard lock(m_);
        return lines_;
    }
    std::size_t size() {
        std::lock_guard lock(m_);
        return lines_.size();
    }
    std::string line(int i) {
        std::lock_guard lock(m_);
        return lines_[std::size_t(i)];
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::string> lines_;
};

std::string bestmove_of(const std::string& line) {
    // "bestmove e2e4 ponder e7e5"
    const auto first = line.find(' ');
    const auto second = line.find(' ', first + 1);
    return line.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
}

std::string fen_line(Transcript& t, UciSession& s) {
    const std::size_t from = t.size();
    s.handle("d");
    const int i = t.wait_for("Fen: ", 1s, from);
    return i < 0 ? "" : t.line(i).substr(5);
}

}  // namespace

TEST(EngineUci, HandshakeListsOptionsAndAnswersIsReady) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("uci");
    ASSERT_GE(t.wait_for("uciok", 1s), 0);
    const auto lines = t.lines();
    EXPECT_EQ(lines[0], "id name Outpost");
    EXPECT_EQ(lines[1], "id author The Outpost developers");
    for (const char* opt : {"Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960",
                            "UCI_LimitStrength", "UCI_Elo", "UCI_ShowWDL", "Level"}) {
        bool found = false;
        for (const auto& l : lines) found |= l.rfind(std::string("option name ") + opt + " type", 0) == 0;
        EXPECT_TRUE(found) << opt;
    }
    s.handle("isready");
    EXPECT_GE(t.wait_for("readyok", 1s), 0);
}

TEST(EngineUci, GoDepthGivesALegalMoveWithInfoLines) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("position startpos moves e2e4 e7e5 g1f3");
    s.handle("go depth 6");
    const int i = t.wait_for("bestmove", 30s);
    ASSERT_GE(i, 0);
    auto pos = position_from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    ASSERT_TRUE(pos.ok());
    EXPECT_TRUE(move_from_uci(*pos, bestmove_of(t.line(i))).ok()) << t.line(i);
    bool depth6 = false;
    for (const auto& l : t.lines())
        if (l.rfind("info depth 6 ", 0) == 0) {
            depth6 = true;
            EXPECT_NE(l.find(" score cp "), std::string::npos) << l;
            EXPECT_NE(l.find(" nodes "), std::string::npos) << l;
            EXPECT_NE(l.find(" nps "), std::string::npos) << l;
            EXPECT_NE(l.find(" hashfull "), std::string::npos) << l;
            EXPECT_NE(l.find(" pv "), std::string::npos) << l;
        }
    EXPECT_TRUE(depth6);
}

TEST(EngineUci, StopEndsAnInfiniteSearchAtOnce) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("position startpos");
    s.handle("go infinite");
    std::this_thread::sleep_for(300ms);
    EXPECT_LT(t.wait_for("bestmove", 1ms), 0) << "no bestmove before stop";
    s.handle("isready");  // answered while searching
    EXPECT_GE(t.wait_for("readyok", 1s), 0);
    const auto start = std::chrono::steady_clock::now();
    s.handle("stop");
    ASSERT_GE(t.wait_for("bestmove", 5s), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST(EngineUci, InfiniteSearchOfAMateWaitsForStop) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.handle("go infinite");
    std::this_thread::sleep_for(300ms);
    EXPECT_LT(t.wait_for("bestmove", 1ms), 0) << "an infinite search must wait for stop";
    s.handle("stop");
    const int i = t.wait_for("bestmove", 5s);
    ASSERT_GE(i, 0);
    EXPECT_EQ(bestmove_of(t.line(i)), "d1d8");
}

TEST(EngineUci, PonderhitTurnsPonderingIntoANormalSearch) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("setoption name Ponder value true");
    s.handle("position startpos moves e2e4 e7e5");
    s.handle("go ponder wtime 2000 btime 2000");
    std::this_thread::sleep_for(300ms);
    EXPECT_LT(t.wait_for("bestmove", 1ms), 0) << "no bestmove while pondering";
    s.handle("ponderhit");
    EXPECT_GE(t.wait_for("bestmove", 5s), 0);
}

TEST(EngineUci, BadFenAndIllegalMoveKeepThePreviousPosition) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("position startpos moves e2e4");
    const std::string before = fen_line(t, s);
    ASSERT_FALSE(before.empty());

    std::size_t from = t.size();
    s.handle("position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1");
    EXPECT_GE(t.wait_for("info string error: bad FEN", 1s, from), 0);
    EXPECT_EQ(fen_line(t, s), before);

    from = t.size();
    s.handle("position startpos moves e2e4 e7e5 e1e3");
    EXPECT_GE(t.wait_for("info string error: illegal move 'e1e3'", 1s, from), 0);
    EXPECT_EQ(fen_line(t, s), before);

    from = t.size();
    s.handle("position fen 8/8/8/8/8/8/8/8 w - - 0 1");  // no kings
    EXPECT_GE(t.wait_for("info string error", 1s, from), 0);
    s.handle("position");
    s.handle("position startpos moves");
    s.handle("position fen");
    s.handle("position startpos junk");
    EXPECT_EQ(fen_line(t, s).substr(0, 8), "rnbqkbnr");
}

TEST(EngineUci, UnknownInputIsReportedAndIgnored) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("setoption name NoSuchOption value 3");
    EXPECT_GE(t.wait_for("info string error: unknown option", 1s), 0);
    std::size_t from = t.size();
    s.handle("setoption name Hash value lots");
    EXPECT_GE(t.wait_for("info string error: option Hash", 1s, from), 0);
    from = t.size();
    s.handle("xyzzy 42");
    EXPECT_GE(t.wait_for("info string unknown command", 1s, from), 0);
    s.handle("go depth");
    s.handle("go wtime -5 btime x depth 2");
    EXPECT_GE(t.wait_for("bestmove", 10s, from), 0);
    EXPECT_TRUE(s.handle(""));
    EXPECT_FALSE(s.handle("quit"));
}

TEST(EngineUci, UciEloOutsideTheRangeIsAnErrorInWords) {
    // Issue 9: an Elo the engine cannot play is refused with the range, never
    // silently ignored.
    Transcript t;
    UciSession s(t.sink());
    s.handle("uci");
    ASSERT_GE(t.wait_for("uciok", 1s), 0);
    const std::string range = std::to_string(ELO_MIN) + " max " + std::to_string(ELO_MAX);
    EXPECT_GE(t.wait_for("option name UCI_Elo type spin default 1500 min " + range, 1s), 0);
    std::size_t from = t.size();
    s.handle("setoption name UCI_Elo value " + std::to_string(ELO_MAX + 1));
    EXPECT_GE(t.wait_for("info string error: option UCI_Elo: " + std::to_string(ELO_MAX + 1) + " is outside " +
                             std::to_string(ELO_MIN) + ".." + std::to_string(ELO_MAX),
                         1s, from),
              0);
    from = t.size();
    s.handle("setoption name UCI_Elo value " + std::to_string(ELO_MIN - 1));
    EXPECT_GE(t.wait_for("info string error: option UCI_Elo: " + std::to_string(ELO_MIN - 1) + " is outside", 1s, from),
              0);
}

TEST(EngineUci, CommandsWhileSearchingDoNotHang) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("go infinite");
    s.handle("setoption name MultiPV value 2");
    s.handle("position startpos moves d2d4");  // ends the running search first
    s.handle("go infinite");
    s.handle("ucinewgame");
    s.handle("setoption name Hash value 8");
    s.handle("go depth 3");
    ASSERT_GE(t.wait_for("bestmove", 10s), 0);
    EXPECT_FALSE(s.handle("quit"));
}

TEST(EngineUci, ShowWdlAndMultiPv) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("setoption name UCI_ShowWDL value true");
    s.handle("setoption name MultiPV value 3");
    s.handle("go depth 5");
    ASSERT_GE(t.wait_for("bestmove", 20s), 0);
    bool wdl = false, line3 = false;
    for (const auto& l : t.lines()) {
        wdl |= l.find(" wdl ") != std::string::npos;
        line3 |= l.find(" multipv 3 ") != std::string::npos;
    }
    EXPECT_TRUE(wdl);
    EXPECT_TRUE(line3);
}

TEST(EngineUci, TwoThreadsSearch) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("setoption name Threads value 2");
    s.handle("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    s.handle("go depth 9");
    const int i = t.wait_for("bestmove", 60s);
    ASSERT_GE(i, 0);
    auto pos = position_from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    EXPECT_TRUE(move_from_uci(*pos, bestmove_of(t.line(i))).ok());
}

TEST(EngineUci, CheckmatedAndStalematedRootsAnswerNullMove) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    s.handle("go depth 3");
    int i = t.wait_for("bestmove", 5s);
    ASSERT_GE(i, 0);
    EXPECT_EQ(t.line(i), "bestmove 0000");
    EXPECT_GE(t.wait_for("info depth 0 score mate 0", 1s), 0);
    std::size_t from = t.size();
    s.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.handle("go movetime 50");
    i = t.wait_for("bestmove", 5s, from);
    ASSERT_GE(i, 0);
    EXPECT_EQ(t.line(i), "bestmove 0000");
}

TEST(EngineUci, Chess960CastlingIsKingTakesRook) {
    Transcript t;
    UciSession s(t.sink());
    s.handle("setoption name UCI_Chess960 value true");
    // Castling is read in king-takes-rook form: e1h1 puts the king on g1, the rook on f1.
    s.handle("position fen 1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1 moves e1h1");
    const std::string fen = fen_line(t, s);
    EXPECT_NE(fen.find("/1R3RK1 b"), std::string::npos) << fen;
}

#ifdef OUTPOST_BINARY
TEST(EngineUci, BinarySessionEndToEnd) {
    const std::string cmd = std::string("printf 'uci\\nisready\\nposition startpos moves e2e4\\ngo depth 4\\n"
                                        "bogus\\nquit\\n' | ") + OUTPOST_BINARY + " uci";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    EXPECT_EQ(status, 0);
    EXPECT_NE(out.find("uciok\n"), std::string::npos) << out;
    EXPECT_NE(out.find("readyok\n"), std::string::npos) << out;
    EXPECT_NE(out.find("bestmove "), std::string::npos) << out;
    EXPECT_NE(out.find("info string unknown command: bogus"), std::string::npos) << out;
}
#endif
