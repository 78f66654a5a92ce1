// Opening names (ECO) from the embedded lichess data set (data/openings/README.md),
// checked against the TSV files themselves as they lie in the repository.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/game.h"
#include "chess/game_pgn.h"
#include "chess/movegen.h"
#include "chess/opening.h"
#include "chess/san.h"

namespace outpost {
namespace {

struct TsvLine {
    std::string eco, name, pgn;
};

std::vector<TsvLine> read_tsv_files() {
    std::vector<TsvLine> lines;
    for (char volume : std::string("abcde")) {
        std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/../../data/openings/" + volume + ".tsv");
        EXPECT_TRUE(in) << volume << ".tsv";
        std::string row;
        std::getline(in, row);  // header
        while (std::getline(in, row)) {
            std::istringstream fields(row);
            TsvLine l;
            std::getline(fields, l.eco, '\t');
            std::getline(fields, l.name, '\t');
            std::getline(fields, l.pgn);
            lines.push_back(l);
        }
    }
    return lines;
}

std::vector<Move> san_moves(Position pos, const std::string& line) {
    std::vector<Move> moves;
    std::istringstream tokens(line);
    std::string token;
    while (tokens >> token) {
        if (token.back() == '.') continue;
        auto m = move_from_san(pos, token);
        EXPECT_TRUE(m) << line << ": " << token;
        if (!m) break;
        moves.push_back(*m);
        pos.do_move(*m);
    }
    return moves;
}

std::optional<Opening> classify(const std::string& line) {
    return classify_opening(Position::startpos(), san_moves(Position::startpos(), line));
}

const TsvLine& tsv_line_for(const std::vector<TsvLine>& lines, const std::string& pgn) {
    for (const auto& l : lines)
        if (l.pgn == pgn) return l;
    static const TsvLine none;
    ADD_FAILURE() << "no TSV line " << pgn;
    return none;
}

TEST(OpeningEco, EveryDataLineReplaysAndIsNamed) {
    EXPECT_TRUE(opening_data_errors().empty()) << opening_data_errors().front();
    const auto lines = read_tsv_files();
    ASSERT_GT(lines.size(), 3000u);
    // Positions that more than one line reaches keep the name of the shortest line.
    std::map<Key, int> reached;
    for (const auto& l : lines) {
        Position pos = Position::startpos();
        for (Move m : san_moves(pos, l.pgn)) pos.do_move(m);
        ++reached[pos.repetition_key()];
    }
    EXPECT_EQ(named_position_count(), reached.size());
    int same = 0, shared = 0;
    for (const auto& l : lines) {
        Position pos = Position::startpos();
        for (Move m : san_moves(pos, l.pgn)) pos.do_move(m);
        auto named = named_position(pos);
        ASSERT_TRUE(named) << l.pgn;
        if (reached[pos.repetition_key()] == 1) {
            EXPECT_EQ(named->eco, l.eco) << l.pgn;
            EXPECT_EQ(named->name, l.name) << l.pgn;
            EXPECT_EQ(named->line, l.pgn);
            ++same;
        } else {
            ++shared;
        }
        // The game along the line is named by its final position.
        EXPECT_EQ(classify(l.pgn), named) << l.pgn;
    }
    EXPECT_GT(same, 3000);
    EXPECT_LT(shared, 100);
}

TEST(OpeningEco, NamedPositionsAsTheTsvSays) {
    const auto lines = read_tsv_files();
    for (const char* pgn : {"1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6", "1. d4 d5 2. Nf3", "1. Nf3 d5", "1. d4 d5", "1. e4 c5",
                            "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6"}) {
        const TsvLine& l = tsv_line_for(lines, pgn);
        auto got = classify(pgn);
        ASSERT_TRUE(got) << pgn;
        EXPECT_EQ(got->eco, l.eco) << pgn;
        EXPECT_EQ(got->name, l.name) << pgn;
    }
    EXPECT_EQ(classify("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6")->eco, "C65");
    EXPECT_EQ(classify("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6")->name, "Ruy Lopez: Berlin Defense");
}

// The data set names positions, not move orders: 1. Nf3 d5 2. d4 is the Zukertort
// Variation of the Queen's Pawn Game (D02), reached in the data by 1. d4 d5 2. Nf3.
TEST(OpeningEco, TranspositionIsNamedByPosition) {
    const auto lines = read_tsv_files();
    const TsvLine& d02 = tsv_line_for(lines, "1. d4 d5 2. Nf3");
    auto got = classify("1. Nf3 d5 2. d4");
    ASSERT_TRUE(got);
    EXPECT_EQ(got->eco, d02.eco);
    EXPECT_EQ(got->name, d02.name);
    // Move-order-based naming would have stopped at 1. Nf3 d5 (A06).
    EXPECT_EQ(classify("1. Nf3 d5")->eco, "A06");

    const TsvLine& a28 = tsv_line_for(lines, "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6");
    auto four_knights = classify("1. Nf3 Nc6 2. c4 e5 3. Nc3 Nf6");
    ASSERT_TRUE(four_knights);
    EXPECT_EQ(four_knights->name, a28.name);
}

// A game that leaves the book keeps the last name it had (walking back).
TEST(OpeningEco, LeavingTheoryKeepsTheLastName) {
    const std::string line = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2";
    Position pos = Position::startpos();
    Game game;
    for (Move m : san_moves(pos, line)) ASSERT_TRUE(game.play(m));
    ASSERT_FALSE(named_position(game.position()));
    auto got = classify_opening(game);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->eco, "C65");
    EXPECT_EQ(got->name, "Ruy Lopez: Berlin Defense");
    EXPECT_EQ(classify_opening(Position::startpos(), game.moves()), got);
}

TEST(OpeningEco, NothingBeforeTheFirstNamedPosition) {
    EXPECT_FALSE(classify_opening(Game{}));
    EXPECT_FALSE(classify_opening(Position::startpos(), {}));
}

// Games from another start get no name, even when the start itself is a named
// position or the moves reach one.
TEST(OpeningEco, NonStandardStartHasNoName) {
    auto after_e4 = position_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    ASSERT_TRUE(after_e4);
    ASSERT_TRUE(named_position(*after_e4));  // "King's Pawn Game" in the data
    Game from_fen(*after_e4);
    ASSERT_TRUE(from_fen.play(*move_from_san(from_fen.position(), "c5")));
    ASSERT_TRUE(named_position(from_fen.position()));  // the Sicilian
    EXPECT_FALSE(classify_opening(from_fen));
    EXPECT_FALSE(classify_opening(*after_e4, from_fen.moves()));

    auto c960 = chess960_position(0);
    ASSERT_TRUE(c960);
    Game g960(*c960);
    ASSERT_TRUE(g960.play(*move_from_san(g960.position(), "e4")));
    EXPECT_FALSE(classify_opening(g960));
}

// Every exported PGN carries [ECO] and [Opening] (issue 10); "?" when there is none.
TEST(OpeningEco, ExportedPgnHasEcoAndOpeningTags) {
    Game game;
    for (Move m : san_moves(Position::startpos(), "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O")) ASSERT_TRUE(game.play(m));
    auto pgn = game_to_pgn(game, GameRecord{});
    EXPECT_EQ(pgn.tag("ECO"), "C65");
    EXPECT_EQ(pgn.tag("Opening"), "Ruy Lopez: Berlin Defense");  // c.tsv: "… 3. Bb5 Nf6 4. O-O"
    const std::string text = write_pgn(pgn);
    EXPECT_NE(text.find("[ECO \"C65\"]"), std::string::npos) << text;

    auto after_e4 = position_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    ASSERT_TRUE(after_e4);
    const std::string from_fen = export_pgn(Game(*after_e4), GameRecord{});
    EXPECT_NE(from_fen.find("[ECO \"?\"]"), std::string::npos) << from_fen;
    EXPECT_NE(from_fen.find("[Opening \"?\"]"), std::string::npos) << from_fen;
}

// Issue 28, item 13: games that "transposed into a named line" and kept an earlier
// name. The data set names a position by its EPD, whose en passant field is written
// only when an en passant capture is legal (README of the data set, python-chess
// `epd()`): a position reached by a double step that can be taken en passant is not
// the position reached by another move order, by the data set's rule and by ours (R9).
// 1. c3 c5 2. d4 cxd4 3. e4 looks like the Smith-Morra Gambit (1. e4 c5 2. d4 cxd4
// 3. c3) but Black may take 3... dxe3 e.p.; one move later the right is gone and
// the game is named by the transposition.
TEST(OpeningEco, EnPassantRightAsTheDataSetWritesIt) {
    const auto lines = read_tsv_files();
    const TsvLine& morra = tsv_line_for(lines, "1. e4 c5 2. d4 cxd4 3. c3");
    Position pos = Position::startpos();
    for (Move m : san_moves(pos, "1. c3 c5 2. d4 cxd4 3. e4")) pos.do_move(m);
    EXPECT_EQ(pos.ep_square(), SQ_E3);
    EXPECT_FALSE(named_position(pos));
    EXPECT_EQ(classify("1. c3 c5 2. d4 cxd4 3. e4")->name, "Saragossa Opening");
    EXPECT_NE(classify("1. c3 c5 2. d4 cxd4 3. e4")->name, morra.name);
    // After any Black move the en passant right is gone: the transpositions are named.
    EXPECT_EQ(classify("1. c3 c5 2. d4 cxd4 3. e4 Nf6")->name,
              tsv_line_for(lines, "1. e4 c5 2. d4 cxd4 3. c3 Nf6").name);
    EXPECT_EQ(classify("1. c3 c5 2. d4 cxd4 3. e4 dxc3")->name,
              tsv_line_for(lines, "1. e4 c5 2. d4 cxd4 3. c3 dxc3").name);
    // Both sides' last double step, in the other order: 1. d4 e5 2. d5 c5 may be taken
    // on c6, the Old Benoni (1. d4 c5 2. d5 e5) on e6; different EPDs, different positions.
    EXPECT_NE(classify("1. d4 e5 2. d5 c5")->name, tsv_line_for(lines, "1. d4 c5 2. d5 e5").name);
    // An en passant square that no capture can use is not written: the same position.
    EXPECT_EQ(classify("1. c3 c5 2. e4")->name, tsv_line_for(lines, "1. e4 c5 2. c3").name);
}

// The position identity of the index is the data set's EPD, checked against the EPD
// text itself (pieces, side to move, castling rights, en passant square only when a
// capture there is legal) on random games steered into named positions and out again:
// every game gets the name of its latest position whose EPD the data set holds.
TEST(OpeningEco, NamedLikeTheDataSetsEpdOnRandomGames) {
    auto epd = [](const Position& p) {
        std::string fen = to_fen(p);
        for (int i = 0; i < 2; ++i) fen.erase(fen.rfind(' '));  // the two move counters
        return fen;
    };
    std::map<std::string, std::string> by_epd;
    for (const auto& l : read_tsv_files()) {
        Position pos = Position::startpos();
        for (Move m : san_moves(pos, l.pgn)) pos.do_move(m);
        by_epd.emplace(epd(pos), l.name);
    }
    ASSERT_EQ(by_epd.size(), named_position_count());  // the data set's EPDs are unique
    std::mt19937 rng(28);
    int named_late = 0;
    for (int g = 0; g < 1500; ++g) {
        Position pos = Position::startpos();
        std::vector<Move> moves;
        std::string latest;
        const int plies = 2 + int(rng() % 30);
        for (int i = 0; i < plies; ++i) {
            const MoveList list = legal_moves(pos);
            if (list.size() == 0) break;
            std::vector<Move> to_named;
            for (Move m : list)
                if (by_epd.count(epd(pos.after(m)))) to_named.push_back(m);
            const Move m = !to_named.empty() && rng() % 10 < 7 ? to_named[rng() % to_named.size()]
                                                                : list[rng() % list.size()];
            moves.push_back(m);
            pos.do_move(m);
            if (auto it = by_epd.find(epd(pos)); it != by_epd.end()) {
                latest = it->second;
                named_late += i >= 5;
            }
        }
        const auto got = classify_opening(Position::startpos(), moves);
        ASSERT_EQ(got ? std::string(got->name) : std::string(), latest) << "game " << g;
    }
    EXPECT_GT(named_late, 30) << named_late;  // named positions past the first moves
}

}  // namespace
}  // namespace outpost
