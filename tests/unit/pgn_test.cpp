// Tests of PGN reading and writing (N4).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

std::string data_file(const std::string& name) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/pgn/" + name, std::ios::binary);
    EXPECT_TRUE(in.good()) << name;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every game of the text, or the error message in place of a game.
std::vector<Result<PgnGame>> read_all(std::string_view text) {
    std::vector<Result<PgnGame>> out;
    PgnReader reader(text);
    while (auto game = reader.next()) out.push_back(std::move(*game));
    return out;
}

PgnGame read_one(std::string_view text) {
    auto game = read_pgn_game(text);
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error().message);
    return game.ok() ? std::move(*game) : PgnGame{};
}

std::string error_of(const Result<PgnGame>& game) { return game.ok() ? "no error" : game.error().message; }

std::vector<std::string> sans(const std::vector<PgnNode>& line) {
    std::vector<std::string> out;
    for (const auto& node : line) out.push_back(node.san);
    return out;
}

// Trees are the same when moves, annotations, comments and variations are.
void expect_same_tree(const std::vector<PgnNode>& a, const std::vector<PgnNode>& b, const std::string& where = "main") {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string here = where + "/" + std::to_string(i);
        EXPECT_EQ(a[i].move, b[i].move) << here;
        EXPECT_EQ(a[i].nags, b[i].nags) << here;
        EXPECT_EQ(a[i].comments_before, b[i].comments_before) << here;
        EXPECT_EQ(a[i].comments_after, b[i].comments_after) << here;
        EXPECT_EQ(a[i].draw_offer, b[i].draw_offer) << here;
        ASSERT_EQ(a[i].variations.size(), b[i].variations.size()) << here;
        for (size_t v = 0; v < a[i].variations.size(); ++v)
            expect_same_tree(a[i].variations[v], b[i].variations[v], here + "(" + std::to_string(v) + ")");
    }
}

void expect_round_trip(const PgnGame& game) {
    const std::string text = write_pgn(game);
    auto back = read_pgn_game(text);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
    EXPECT_EQ(back->mainline(), game.mainline()) << text;
    EXPECT_EQ(back->final_position(), game.final_position()) << text;
    EXPECT_EQ(back->start.is_chess960(), game.start.is_chess960());
    EXPECT_EQ(back->result, game.result);
    expect_same_tree(back->moves, game.moves);
    EXPECT_EQ(write_pgn(*back), text);  // the export format is a fixed point
}

}  // namespace

TEST(PgnN4, ReadsMultipleGamesWithTagsAndResults) {
    const std::string text = data_file("annotated.pgn");
    const auto games = read_all(text);
    ASSERT_EQ(games.size(), 3u);
    for (const auto& g : games) ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_EQ(games[0]->tag("White"), "Kermur Sire de Legal");
    EXPECT_EQ(games[0]->tag("Annotator"), "Outpost tests");
    EXPECT_EQ(games[0]->tag("Nonexistent"), std::nullopt);
    EXPECT_EQ(games[0]->tags.front().first, "Event");
    EXPECT_EQ(games[0]->tags.size(), 8u);
    EXPECT_EQ(games[0]->result, "1-0");
    EXPECT_EQ(games[0]->moves.size(), 13u);
    EXPECT_TRUE(games[0]->final_position().is_checkmate());
    EXPECT_EQ(games[1]->result, "1/2-1/2");
    EXPECT_EQ(games[1]->tag("TimeControl"), "5400+30");
    EXPECT_EQ(games[1]->moves.size(), 36u);
    EXPECT_EQ(games[2]->result, "1-0");
    EXPECT_TRUE(games[2]->final_position().is_checkmate());
}

TEST(PgnN4, ACommentBeforeTheFirstTagPairBelongsToNoGame) {
    // pgn-extract's ECO file opens with a comment before the first game's tags; it is
    // not a game of its own, so game numbers agree with other readers.
    const std::string text =
        "{ Opening classification file.\n  Two games follow. }\n; a line comment too\n\n"
        "[ECO \"A00\"]\n[Opening \"Polish\"]\n\n1. b4 *\n\n"
        "{ between the games }\n\n[ECO \"A01\"]\n\n1. b3 *\n\n{ after the last game }\n";
    const auto games = read_all(text);
    ASSERT_EQ(games.size(), 2u);
    ASSERT_TRUE(games[0].ok()) << games[0].error().message;
    EXPECT_EQ(games[0]->tag("ECO"), "A00");
    EXPECT_EQ(sans(games[0]->moves), std::vector<std::string>{"b4"});
    EXPECT_TRUE(games[0]->comments.empty());
    ASSERT_TRUE(games[1].ok()) << games[1].error().message;
    EXPECT_EQ(games[1]->tag("ECO"), "A01");
    // A comment before the moves of a game without tags still belongs to that game.
    const PgnGame untagged = read_one("{ intro } 1. e4 *\n");
    ASSERT_EQ(untagged.moves.size(), 1u);
    EXPECT_EQ(untagged.moves[0].comments_before, std::vector<std::string>{"intro"});
    // An unclosed comment is still an error, not silently skipped.
    EXPECT_FALSE(read_pgn_game("{ never closed\n[Event \"x\"]\n\n1. e4 *\n").ok());
}

TEST(PgnN4, ReadsCommentsBeforeAndAfterMoves) {
    const auto games = read_all(data_file("annotated.pgn"));
    ASSERT_EQ(games.size(), 3u);
    const PgnGame& legal = *games[0];
    ASSERT_EQ(legal.moves.size(), 13u);
    EXPECT_EQ(
        legal.moves[0].comments_before,
        std::vector<std::string>{"The trap that bears Legal's name. Check and mate signs are left out on purpose."});
    // A comment that runs over a line break is stored with single spaces.
    EXPECT_EQ(legal.moves[9].san, "Bxd1");
    EXPECT_EQ(legal.moves[9].comments_after, std::vector<std::string>{"Black takes the queen."});
    // A ';' comment runs to the end of the line.
    const PgnGame& italian = *games[1];
    EXPECT_EQ(italian.moves[11].san, "d6");
    EXPECT_EQ(italian.moves[11].comments_after, std::vector<std::string>{"the quiet Italian"});
}

TEST(PgnN4, ReadsNagsAndSuffixAnnotations) {
    const PgnGame legal = std::move(*read_all(data_file("annotated.pgn"))[0]);
    EXPECT_EQ(legal.moves[7].san, "g6");
    EXPECT_EQ(legal.moves[7].nags, std::vector<int>{2});
    EXPECT_EQ(legal.moves[8].san, "Nxe5");
    EXPECT_EQ(legal.moves[8].nags, std::vector<int>{1});
    EXPECT_EQ(legal.moves[9].nags, std::vector<int>{4});
    const auto& var = legal.moves[5].variations.at(0);  // 3... Nf6 4. Ng5 d5 5. exd5 Nxd5?! 6. Nxf7 $5
    EXPECT_EQ(sans(var), (std::vector<std::string>{"Nf6", "Ng5", "d5", "exd5", "Nxd5", "Nxf7"}));
    EXPECT_EQ(var[4].nags, std::vector<int>{6});
    EXPECT_EQ(var[5].nags, std::vector<int>{5});

    const PgnGame all = read_one("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $10 $32 *");
    std::vector<std::vector<int>> nags;
    for (const auto& node : all.moves) nags.push_back(node.nags);
    EXPECT_EQ(nags, (std::vector<std::vector<int>>{{1}, {2}, {3}, {4}, {5}, {6}, {10, 32}}));
    EXPECT_EQ(all.moves[0].san, "e4");
}

TEST(PgnN4, ReadsNestedVariations) {
    const PgnGame legal = std::move(*read_all(data_file("annotated.pgn"))[0]);
    // 3... Bg4 has the alternative 3... Nf6, which in turn has 5. Bxd5 as an
    // alternative to 5. exd5.
    ASSERT_EQ(legal.moves[5].variations.size(), 1u);
    const auto& nf6 = legal.moves[5].variations[0];
    ASSERT_EQ(nf6[3].variations.size(), 1u);
    EXPECT_EQ(sans(nf6[3].variations[0]), std::vector<std::string>{"Bxd5"});
    EXPECT_EQ(nf6[3].variations[0][0].nags, std::vector<int>{6});
    EXPECT_EQ(nf6[4].comments_after, std::vector<std::string>{"Playable, but White has the Fried Liver attack."});
    // 5... Bxd1 has the alternative 5... dxe5 6. Qxg4.
    ASSERT_EQ(legal.moves[9].variations.size(), 1u);
    EXPECT_EQ(sans(legal.moves[9].variations[0]), (std::vector<std::string>{"dxe5", "Qxg4"}));

    // Several variations on one move, nested three deep, and a comment that opens one.
    const PgnGame deep =
        read_one("1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6 (2... e6)))) (1. c4) ({English} 1. Nf3) 1... e5 *");
    ASSERT_EQ(deep.moves.size(), 2u);
    ASSERT_EQ(deep.moves[0].variations.size(), 3u);
    EXPECT_EQ(sans(deep.moves[0].variations[1]), std::vector<std::string>{"c4"});
    EXPECT_EQ(deep.moves[0].variations[2][0].comments_before, std::vector<std::string>{"English"});
    const auto& d4 = deep.moves[0].variations[0];
    const auto& deep_nf6 = d4[1].variations.at(0);
    const auto& deep_nf3 = deep_nf6[1].variations.at(0);
    EXPECT_EQ(sans(deep_nf3), (std::vector<std::string>{"Nf3", "g6"}));
    EXPECT_EQ(sans(deep_nf3[1].variations.at(0)), std::vector<std::string>{"e6"});
}

TEST(PgnN4, SkipsEscapeLinesAndReadsGluedMoveNumbers) {
    const PgnGame g = read_one(
        "% escape line\n[White \"A\"]\n% another\n[Black \"B\"]\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n%4. Qh5\n4.Ba4 Nf6 "
        "5.0-0 Be7 1-0\n");
    EXPECT_EQ(g.tag("Black"), "B");
    EXPECT_EQ(sans(g.moves),
              (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "0-0", "Be7"}));
    EXPECT_EQ(g.result, "1-0");
    const PgnGame black = read_one("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]\n\n12...Kd7 13.e4 Kd6 14. e5+ *");
    EXPECT_EQ(black.moves.size(), 4u);
    const PgnGame dots = read_one("1. e4 {c} 1... e5 2. Nf3 {c} ... Nc6 *");
    EXPECT_EQ(dots.moves.size(), 4u);
}

TEST(PgnN4, ReadsEscapedTagValues) {
    const PgnGame g = read_one("[Event \"The \\\"Big\\\" One \\\\ Final\"]\n[Site \"a\\b\"]\n\n*");
    EXPECT_EQ(g.tag("Event"), "The \"Big\" One \\ Final");
    EXPECT_EQ(g.tag("Site"), "a\\b");  // a backslash before another character stays
    const std::string out = write_pgn(g);
    EXPECT_NE(out.find("[Event \"The \\\"Big\\\" One \\\\ Final\"]"), std::string::npos) << out;
    EXPECT_EQ(read_one(out).tag("Event"), "The \"Big\" One \\ Final");
    EXPECT_EQ(read_one(out).tag("Site"), "a\\b");
}

TEST(PgnN4, ReadsFenAndSetUp) {
    const auto games = read_all(data_file("annotated.pgn"));
    const PgnGame& endgame = *games.at(2);
    EXPECT_EQ(to_fen(endgame.start), "k7/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    EXPECT_EQ(endgame.moves[0].san, "e5");
    EXPECT_EQ(endgame.moves[1].san, "dxe6");  // written "dxe6 e.p."
    EXPECT_EQ(endgame.moves[1].move.kind(), Move::EN_PASSANT);
    EXPECT_EQ(endgame.moves[5].san, "e8Q");
    EXPECT_EQ(endgame.moves[5].move.promotion(), QUEEN);
    // FEN without SetUp is accepted as well.
    const PgnGame nosetup = read_one("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *");
    EXPECT_EQ(to_fen(nosetup.final_position()), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
}

TEST(PgnN4, ReadsChess960WithShredderAndXFen) {
    const auto games = read_all(data_file("chess960.pgn"));
    ASSERT_EQ(games.size(), 2u);
    for (const auto& g : games) ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_TRUE(games[0]->start.is_chess960());
    EXPECT_EQ(chess960_number(games[0]->start), 0);
    EXPECT_EQ(games[0]->moves[8].san, "O-O-O");
    EXPECT_EQ(games[0]->moves[8].move, Move::make<Move::CASTLING>(SQ_G1, SQ_F1));
    EXPECT_EQ(games[0]->result, "*");
    // X-FEN "KQkq" and Variant "Fischerandom"; O-O with the king staying on g1.
    EXPECT_TRUE(games[1]->start.is_chess960());
    EXPECT_EQ(games[1]->start, games[0]->start);
    EXPECT_EQ(games[1]->moves[4].move, Move::make<Move::CASTLING>(SQ_G1, SQ_H1));
    const Position end = games[1]->final_position();
    EXPECT_EQ(end.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(end.piece_on(SQ_F1), W_ROOK);
    EXPECT_EQ(end.piece_on(SQ_G8), B_KING);
    for (const auto& g : games) expect_round_trip(*g);
    const std::string out = write_pgn(*games[1]);
    EXPECT_NE(out.find("[Variant \"Fischerandom\"]"), std::string::npos) << out;
    EXPECT_NE(out.find("3. O-O O-O"), std::string::npos) << out;

    // Other spellings of the variant; a Chess960 game from the classical array.
    for (std::string_view variant : {"chess 960", "Chess960", "fischerandom", "Fischer Random"}) {
        const PgnGame g = read_one("[Variant \"" + std::string(variant) + "\"]\n\n1. e4 *");
        EXPECT_TRUE(g.start.is_chess960()) << variant;
    }
    EXPECT_EQ(error_of(read_pgn_game("[Variant \"Atomic\"]\n\n1. e4 *")),
              "game 1 (line 1): variant 'Atomic' is not supported (only standard and Chess960)");
}

TEST(PgnN4, ReadsResultTokensAndGamesWithoutMoves) {
    const auto games = read_all(
        "1. e4 1-0\n\n1. d4 0-1\n\n1. c4 1/2-1/2\n\n1. Nf3 *\n\n"
        "[Event \"No moves\"]\n[Result \"1-0\"]\n\n"
        "[Event \"Only a result\"]\n\n0-1\n\n"
        "[Event \"A comment\"]\n\n{Adjourned before the first move.} *\n\n"
        "[Event \"No result token\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5\n");
    ASSERT_EQ(games.size(), 8u);
    for (const auto& g : games) ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_EQ(games[0]->result, "1-0");
    EXPECT_EQ(games[1]->result, "0-1");
    EXPECT_EQ(games[2]->result, "1/2-1/2");
    EXPECT_EQ(games[3]->result, "*");
    EXPECT_EQ(games[4]->tag("Event"), "No moves");
    EXPECT_TRUE(games[4]->moves.empty());
    EXPECT_EQ(games[4]->result, "1-0");  // from the Result tag
    EXPECT_EQ(games[5]->tag("Event"), "Only a result");
    EXPECT_EQ(games[5]->result, "0-1");
    EXPECT_EQ(games[6]->comments, std::vector<std::string>{"Adjourned before the first move."});
    EXPECT_EQ(games[7]->result, "1/2-1/2");
    EXPECT_EQ(games[7]->moves.size(), 2u);
    for (const auto& g : games) expect_round_trip(*g);
    EXPECT_TRUE(read_all("").empty());
    EXPECT_TRUE(read_all("  \n% only an escape line\n\n").empty());
    EXPECT_EQ(error_of(read_pgn_game("")), "no game found");
}

TEST(PgnN4, ReadsTolerantSanInMovetext) {
    const PgnGame g = read_one(
        "[FEN \"4k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1\"]\n\n1. exd6e.p. Kd7 2. b8(Q) Ke6 3. 0-0 Kd5 4. Qb5 Ke4 "
        "5. d7 *");
    EXPECT_EQ(g.moves.size(), 9u);
    EXPECT_EQ(g.moves[2].move.promotion(), QUEEN);
    EXPECT_EQ(g.moves[4].move.kind(), Move::CASTLING);
}

TEST(PgnN4, KeepsDrawOffers) {
    const auto games = read_all(data_file("annotated.pgn"));
    const PgnGame& italian = *games.at(1);
    EXPECT_EQ(italian.moves[23].san, "Rxe6");
    EXPECT_TRUE(italian.moves[23].draw_offer);
    EXPECT_EQ(std::count_if(italian.moves.begin(), italian.moves.end(), [](auto& n) { return n.draw_offer; }), 1);
    const std::string out = write_movetext(italian);
    EXPECT_NE(out.find("12. Bxe6 Rxe6 {(=)} 13. Ng3"), std::string::npos) << out;
    expect_round_trip(italian);
}

TEST(PgnN4, ErrorsNameGameLineMoveSideAndToken) {
    const auto games = read_all(data_file("illegal_game2.pgn"));
    ASSERT_EQ(games.size(), 3u);
    EXPECT_TRUE(games[0].ok());
    EXPECT_EQ(error_of(games[1]), "game 2 (line 20), move 5 (black): illegal move 'Qxd4': no queen can move to d4");
    EXPECT_TRUE(games[2].ok());

    const auto errors = read_all(
        "1. e4 e5 2. Zz9 *\n\n"
        "1. e4 (1. d4 d5 2. Nf6) *\n\n"
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nd4 4. Nd5 *\n\n"
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qf7 Kxf7 *\n\n"
        "[Event \"x\"]\n[White unquoted]\n[Black \"y\"]\n\n1. e4 *\n\n"
        "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n"
        "1. e4 (1. d4 *\n\n"
        "1. e4 ) e5 *\n\n"
        "( 1. e4 ) *\n\n"
        "1. e4 $300 *\n\n"
        "1. e4 e5 \xE2\x99\x98"
        "f3 *\n\n"
        "1. e4 {never closed\n\n[Event \"after\"]\n\n1. d4 *\n");
    std::vector<std::string> messages;
    for (const auto& g : errors) messages.push_back(error_of(g));
    EXPECT_EQ(messages, (std::vector<std::string>{
                            "game 1 (line 1), move 2 (white): unreadable move 'Zz9'",
                            "game 2 (line 3), move 2 (white) in a variation: illegal move 'Nf6': no knight can move "
                            "to f6",
                            "game 3 (line 5), move 4 (white): illegal move 'Nd5': no knight can move to d5",
                            "game 4 (line 7), move 4 (black): illegal move 'Kxf7': no king can move to f7 (black is "
                            "in check)",
                            "game 5 (line 10): tag White: the value must be in double quotes",
                            "game 6 (line 15): FEN tag: no white king",
                            "game 7 (line 19): the result * comes inside the variation opened on line 19",
                            "game 8 (line 21): ')' without a variation to close",
                            "game 9 (line 23): a variation '(' must follow the move it replaces",
                            "game 10 (line 25), move 1 (black): NAG '$' must be followed by a number from 0 to 255",
                            "game 11 (line 27), move 2 (white): unexpected character '\xE2\x99\x98' in the moves",
                            "game 12 (line 29), move 1 (black): comment '{' is not closed",
                            "no error",
                        }));
    ASSERT_EQ(errors.size(), 13u);
    EXPECT_EQ(errors[12]->tag("Event"), "after");
}

TEST(PgnN4, RecoversAfterABadGame) {
    // Errors in the tags, in the moves and in the start position: each time the next
    // game is read, whether or not the bad game reached its result.
    const auto games = read_all(
        "[Event \"1\"]\n[Bad tag\n[Site \"s\"]\n\n1. e4 e5 1-0\n\n"
        "[Event \"2\"]\n\n1. e4 e5\n\n"
        "[Event \"3\"]\n\n1. e4 Ke7 Ke6 2. d4 {comment with [brackets] and 1-0} 0-1\n\n"
        "[Event \"4\"]\n\n1. e4 Qxe4 2. Qh5 (2. d4 Zz9 3. c4) 1/2-1/2\n"
        "[Event \"5\"]\n[FEN \"bad\"]\n\n1. e4 *\n"
        "[Event \"6\"]\n\n1. d4 d5 *\n");
    ASSERT_EQ(games.size(), 6u);
    EXPECT_FALSE(games[0].ok());
    ASSERT_TRUE(games[1].ok()) << games[1].error().message;
    EXPECT_EQ(games[1]->tag("Event"), "2");
    EXPECT_EQ(games[1]->moves.size(), 2u);
    EXPECT_FALSE(games[2].ok());
    EXPECT_FALSE(games[3].ok());
    EXPECT_FALSE(games[4].ok());
    EXPECT_EQ(error_of(games[4]).substr(0, 25), "game 5 (line 19): FEN tag");
    ASSERT_TRUE(games[5].ok()) << games[5].error().message;
    EXPECT_EQ(games[5]->tag("Event"), "6");
}

TEST(PgnN4, WritesExportFormat) {
    const PgnGame g = read_one(
        "[White \"A\"]\n[ECO \"C20\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
        "{Start} 1. e4 $1 {best   by\ntest} (1. d4 d5 (1... Nf6) 2. c4) e5 2. Nf3 Nc6 (2... d6 {Philidor}) 3. Bb5 "
        "1-0");
    EXPECT_EQ(write_pgn(g),
              "[Event \"?\"]\n"
              "[Site \"?\"]\n"
              "[Date \"????.??.??\"]\n"
              "[Round \"?\"]\n"
              "[White \"A\"]\n"
              "[Black \"B\"]\n"
              "[Result \"1-0\"]\n"
              "[ECO \"C20\"]\n"
              "\n"
              "{Start} 1. e4 $1 {best by test} (1. d4 d5 (1... Nf6) 2. c4) 1... e5 2. Nf3 Nc6\n"
              "(2... d6 {Philidor}) 3. Bb5 1-0\n"
              "\n");
    EXPECT_EQ(write_movetext(g),
              "{Start} 1. e4 $1 {best by test} (1. d4 d5 (1... Nf6) 2. c4) 1... e5 2. Nf3 Nc6 "
              "(2... d6 {Philidor}) 3. Bb5");
    // The writer uses standard SAN whatever was read.
    const PgnGame sloppy = read_one(
        "1. e2e4 e7-e5 2. Ng1f3 Nb8c6 3. Bb5! a6 4. Ba4 Nf6 5. 0-0 Nxe4 6. Re1 Nc5 "
        "7. Rxe5+ Be7 8. Nc3 O-O *");
    EXPECT_EQ(write_movetext(sloppy),
              "1. e4 e5 2. Nf3 Nc6 3. Bb5 $1 a6 4. Ba4 Nf6 5. O-O Nxe4 6. Re1 Nc5 7. Rxe5+ Be7 "
              "8. Nc3 O-O");
    // A non-standard start writes SetUp and FEN; a black start numbers with "N...".
    const PgnGame black = read_one("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]\n\n12... Kd7 13. e4 *");
    const std::string out = write_pgn(black);
    EXPECT_NE(out.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]\n\n12... Kd7 13. e4 *\n\n"),
              std::string::npos)
        << out;
}

TEST(PgnN4, WrapsLinesAt80Columns) {
    // A long game with a long comment: no line is longer than 79 characters, and the
    // text reads back the same.
    Position pos = Position::startpos();
    std::vector<Move> moves;
    std::mt19937 rng(7);
    for (int i = 0; i < 150; ++i) {
        MoveList legal = legal_moves(pos);
        if (legal.empty()) break;
        moves.push_back(legal[int(rng() % unsigned(legal.size()))]);
        pos.do_move(moves.back());
    }
    auto g = make_pgn_game(Position::startpos(), moves);
    ASSERT_TRUE(g.ok());
    std::string long_comment;
    for (int i = 0; i < 40; ++i) long_comment += (i ? " word" : "word") + std::to_string(i);
    g->moves[3].comments_after.push_back(long_comment);
    g->moves[4].comments_after.push_back(std::string(100, 'x'));  // one word longer than a line
    const std::string text = write_pgn(*g);
    std::istringstream lines(text);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
        ++count;
        if (line != "{" + std::string(100, 'x') + "}") {
            EXPECT_LE(line.size(), 79u) << line;
        }
    }
    EXPECT_GT(count, 15);
    expect_round_trip(*g);
}

TEST(PgnN4, BuildsGamesFromMovesAndWritesMovetext) {
    const Position start = Position::startpos();
    std::vector<Move> moves;
    Position pos = start;
    for (std::string_view uci : {"e2e4", "e7e5", "g1f3"}) {
        moves.push_back(move_from_uci(pos, uci).value());
        pos.do_move(moves.back());
    }
    auto g = make_pgn_game(start, moves, "*");
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(write_movetext(*g), "1. e4 e5 2. Nf3");
    EXPECT_EQ(sans(g->moves), (std::vector<std::string>{"e4", "e5", "Nf3"}));

    const Position black =
        position_from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12").value();
    auto g2 = make_pgn_game(black, std::vector<Move>{Move(SQ_G8, SQ_F6), Move(SQ_F1, SQ_C4)});
    ASSERT_TRUE(g2.ok());
    EXPECT_EQ(write_movetext(*g2), "12... Nf6 13. Bc4");

    auto bad = make_pgn_game(start, std::vector<Move>{Move(SQ_E2, SQ_E4), Move(SQ_E2, SQ_E4)});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "move 1 (black): illegal move 'e2e4' in this position");

    PgnGame tags;
    tags.set_tag("White", "A");
    tags.set_tag("Event", "E");
    tags.set_tag("White", "C");
    EXPECT_EQ(tags.tag("White"), "C");
    EXPECT_EQ(tags.tags.size(), 2u);
    tags.remove_tag("White");
    EXPECT_EQ(tags.tag("White"), std::nullopt);
    EXPECT_EQ(write_pgn(tags),
              "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
              "[Black \"?\"]\n[Result \"*\"]\n\n*\n\n");
}

TEST(PgnN4, ReadsWindowsLineEndingsAndByteOrderMark) {
    const auto games = read_all(
        "\xEF\xBB\xBF[Event \"x\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5\r\n2. Nf3 1-0\r\n\r\n"
        "[Event \"y\"]\r\n\r\n1. d4 *\r\n");
    ASSERT_EQ(games.size(), 2u);
    ASSERT_TRUE(games[0].ok()) << games[0].error().message;
    EXPECT_EQ(games[0]->tag("Event"), "x");
    EXPECT_EQ(games[0]->moves.size(), 3u);
    ASSERT_TRUE(games[1].ok());
    EXPECT_EQ(games[1]->tag("Event"), "y");
}

TEST(PgnN4, DataFilesRoundTrip) {
    for (const char* name : {"annotated.pgn", "chess960.pgn"}) {
        for (const auto& g : read_all(data_file(name))) {
            ASSERT_TRUE(g.ok()) << name << ": " << g.error().message;
            expect_round_trip(*g);
        }
    }
}

// Property: random games from the start position and random Chess960 starts, with
// random variations, NAGs and comments, survive write_pgn and reading back.
TEST(PgnN4, WriteReadRoundTripOverRandomPlayouts) {
    std::mt19937 rng(960);
    const auto random_line = [&](Position pos, int plies) {
        std::vector<PgnNode> line;
        for (int i = 0; i < plies; ++i) {
            const MoveList legal = legal_moves(pos);
            if (legal.empty()) break;
            PgnNode node;
            node.move = legal[int(rng() % unsigned(legal.size()))];
            line.push_back(node);
            pos.do_move(node.move);
        }
        return line;
    };
    for (int game = 0; game < 300; ++game) {
        PgnGame g;
        if (game % 2) {
            g.start = chess960_position(int(rng() % 960)).value();
            g.set_tag("Variant", "Chess960");
        }
        g.set_tag("Round", std::to_string(game + 1));
        g.moves = random_line(g.start, int(rng() % 200) + 1);
        g.result = std::vector<std::string>{"1-0", "0-1", "1/2-1/2", "*"}[rng() % 4];
        // Decorate a few moves; a variation replaces its move from the position before it.
        Position pos = g.start;
        for (auto& node : g.moves) {
            const unsigned r = rng() % 40;
            if (r == 0) node.nags.push_back(int(rng() % 140));
            if (r == 1) node.comments_after.push_back("after " + std::to_string(rng() % 1000) + " {x}");
            // A comment between two moves is read as following the first, so only
            // the first move of a line has comments before it.
            if (&node == &g.moves.front() && r % 4 == 0) node.comments_before.push_back("before the game");
            if (r == 2) node.nags = {1, 18};
            if (r == 3) node.draw_offer = true;
            if (r == 4 || r == 5) {
                auto variation = random_line(pos, int(rng() % 8) + 1);
                if (rng() % 3 == 0) variation[0].comments_before.push_back("before the variation");
                if (r == 5 && variation.size() > 2)
                    variation[1].variations.push_back(random_line(pos.after(variation[0].move), 3));
                node.variations.push_back(std::move(variation));
            }
            pos.do_move(node.move);
        }
        // '}' cannot be written inside a comment; the writer turns it into ')'.
        for (auto& node : g.moves)
            for (auto& c : node.comments_after) std::replace(c.begin(), c.end(), '}', ')');
        const std::string text = write_pgn(g);
        auto back = read_pgn_game(text);
        ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
        ASSERT_EQ(back->mainline(), g.mainline()) << text;
        ASSERT_EQ(back->final_position(), g.final_position()) << text;
        ASSERT_EQ(to_fen(back->final_position()), to_fen(g.final_position()));
        EXPECT_EQ(back->result, g.result);
        EXPECT_EQ(back->tag("Round"), std::to_string(game + 1));
        expect_same_tree(back->moves, g.moves);
        // Comments containing '{' survive too.
        EXPECT_EQ(write_pgn(*back), text);
    }
}
