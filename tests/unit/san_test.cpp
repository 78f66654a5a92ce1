// Tests of SAN writing and tolerant reading (N3, R17, P17; FIDE Laws Appendix C,
// C.3 for localised piece letters, C.13 for the signs). See docs/laws.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

Position pos_of(std::string_view fen, bool chess960 = false) {
    auto p = position_from_fen(fen, chess960);
    EXPECT_TRUE(p.ok()) << fen << ": " << (p.ok() ? "" : p.error().message);
    return p.ok() ? *p : Position::startpos();
}

Move uci(const Position& pos, std::string_view text) {
    auto m = move_from_uci(pos, text);
    EXPECT_TRUE(m.ok()) << text << ": " << (m.ok() ? "" : m.error().message);
    return m.ok() ? *m : Move::none();
}

// The SAN of a move given in UCI.
std::string san(std::string_view fen, std::string_view uci_move, const SanOptions& opts = {}) {
    const Position pos = pos_of(fen);
    return move_to_san(pos, uci(pos, uci_move), opts);
}

// The UCI form of a move read from SAN, or "error: ..." with the message.
std::string read(std::string_view fen, std::string_view text, bool chess960 = false) {
    const Position pos = pos_of(fen, chess960);
    auto m = move_from_san(pos, text);
    return m.ok() ? move_to_uci(pos, *m) : "error: " + m.error().message;
}

std::string error_of(std::string_view fen, std::string_view text) {
    auto m = move_from_san(pos_of(fen), text);
    return m.ok() ? "no error" : m.error().message;
}

// Plays the moves (SAN) from the position and returns the position.
Position play(Position pos, std::initializer_list<std::string_view> moves) {
    for (auto text : moves) {
        auto m = move_from_san(pos, text);
        EXPECT_TRUE(m.ok()) << text << ": " << (m.ok() ? "" : m.error().message);
        if (!m.ok()) break;
        pos.do_move(*m);
    }
    return pos;
}

constexpr std::string_view TwoKnights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
constexpr std::string_view TwoRooksOnAFile = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
// Queens on a1, a5 and e1 all reach c3: a1 shares a file with a5 and a rank with e1.
constexpr std::string_view ThreeQueens = "8/8/7k/Q7/8/8/8/Q3Q2K w - - 0 1";
constexpr std::string_view EnPassant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
constexpr std::string_view Castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

}  // namespace

TEST(SanN3, DisambiguatesByFileThenRankThenBoth) {
    EXPECT_EQ(san(TwoKnights, "b1d2"), "Nbd2");
    EXPECT_EQ(san(TwoKnights, "f3d2"), "Nfd2");
    EXPECT_EQ(san(TwoKnights, "f3g5"), "Ng5");  // only one knight reaches g5
    EXPECT_EQ(san(TwoRooksOnAFile, "a1a3"), "R1a3");
    EXPECT_EQ(san(TwoRooksOnAFile, "a5a3"), "R5a3");
    EXPECT_EQ(san(TwoRooksOnAFile, "a5a8"), "Ra8+");
    EXPECT_EQ(san(ThreeQueens, "a1c3"), "Qa1c3");  // file and rank are both shared
    EXPECT_EQ(san(ThreeQueens, "a5c3"), "Q5c3");   // the file is shared with a1, the rank with nobody
    EXPECT_EQ(san(ThreeQueens, "e1c3"), "Qec3");   // the file is unique
    EXPECT_EQ(san(ThreeQueens, "a1b2"), "Qb2");    // only the queen on a1 reaches b2
}

TEST(SanN3, DisambiguationIgnoresPinnedPieces) {
    // The knight on c3 is pinned by the bishop on a5, so only Ng1 can go to e2.
    constexpr std::string_view Pinned = "4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1";
    EXPECT_EQ(san(Pinned, "g1e2"), "Ne2");
    EXPECT_EQ(read(Pinned, "Ne2"), "g1e2");
    EXPECT_EQ(read(Pinned, "Nce2"), "error: illegal move 'Nce2': no knight on the c-file can move to e2");
    // Rooks on d1 and d5, the one on d5 pinned along the fifth rank: Rd3 needs no rank.
    constexpr std::string_view PinnedRook = "4k3/8/8/q2R3K/8/8/8/3R4 w - - 0 1";
    EXPECT_EQ(san(PinnedRook, "d1d3"), "Rd3");
}

TEST(SanN3, PawnMovesCapturesAndEnPassant) {
    EXPECT_EQ(san(StartFen, "e2e4"), "e4");
    const Position pos = play(Position::startpos(), {"e4", "d5"});
    EXPECT_EQ(move_to_san(pos, uci(pos, "e4d5")), "exd5");
    EXPECT_EQ(san(EnPassant, "e5d6"), "exd6");
    EXPECT_EQ(uci(pos_of(EnPassant), "e5d6").kind(), Move::EN_PASSANT);
    EXPECT_EQ(san(EnPassant, "e5e6"), "e6");
}

TEST(SanN3, PromotionsWithCheckAndMate) {
    constexpr std::string_view Promote = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1";
    EXPECT_EQ(san(Promote, "e7e8q"), "e8=Q#");
    EXPECT_EQ(san(Promote, "e7e8r"), "e8=R#");
    EXPECT_EQ(san(Promote, "e7e8b"), "e8=B");
    EXPECT_EQ(san(Promote, "e7e8n"), "e8=N");
    constexpr std::string_view Capture = "k2r4/4P3/1K6/8/8/8/8/8 w - - 0 1";
    EXPECT_EQ(san(Capture, "e7e8q"), "e8=Q");  // the rook on d8 shields the king
    EXPECT_EQ(san(Capture, "e7d8q"), "exd8=Q#");
    EXPECT_EQ(san(Capture, "e7d8n"), "exd8=N");
    constexpr std::string_view Check = "k7/4P3/8/8/8/8/8/K7 w - - 0 1";
    EXPECT_EQ(san(Check, "e7e8q"), "e8=Q+");
    EXPECT_EQ(san("8/8/8/8/8/8/p5k1/4K3 b - - 0 1", "a2a1q"), "a1=Q+");
}

TEST(SanN3, CastlingInStandardChess) {
    EXPECT_EQ(san(Castles, "e1g1"), "O-O");
    EXPECT_EQ(san(Castles, "e1c1"), "O-O-O");
    EXPECT_EQ(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    EXPECT_EQ(san("r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8"), "O-O-O+");
}

TEST(SanN3, CastlingInChess960) {
    // The king stays on g1 for O-O (only the rook moves) and goes to c1 for O-O-O.
    const Position pos = pos_of("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true);
    const Move oo = Move::make<Move::CASTLING>(SQ_G1, SQ_H1);
    const Move ooo = Move::make<Move::CASTLING>(SQ_G1, SQ_B1);
    ASSERT_TRUE(pos.is_legal(oo));
    ASSERT_TRUE(pos.is_legal(ooo));
    EXPECT_EQ(move_to_san(pos, oo), "O-O");
    EXPECT_EQ(move_to_san(pos, ooo), "O-O-O");
    EXPECT_EQ(move_from_san(pos, "O-O").value(), oo);
    EXPECT_EQ(move_from_san(pos, "0-0-0").value(), ooo);
    EXPECT_EQ(pos.after(oo).piece_on(SQ_G1), W_KING);
    EXPECT_EQ(pos.after(oo).piece_on(SQ_F1), W_ROOK);

    // King on f1, rook on h1: Kg1 is an ordinary king move, O-O is castling, and both
    // end with the king on g1.
    const Position both = pos_of("4k3/8/8/8/8/8/8/5K1R w H - 0 1", true);
    const Move castle = Move::make<Move::CASTLING>(SQ_F1, SQ_H1);
    ASSERT_TRUE(both.is_legal(castle));
    EXPECT_EQ(move_to_san(both, castle), "O-O");
    EXPECT_EQ(move_to_san(both, Move(SQ_F1, SQ_G1)), "Kg1");
    EXPECT_EQ(move_from_san(both, "Kg1").value(), Move(SQ_F1, SQ_G1));
    EXPECT_EQ(move_from_san(both, "O-O").value(), castle);

    // A random Chess960 start: after clearing the back rank both castlings are O-O/O-O-O.
    auto p960 = chess960_position(0);  // BBQNNRKR
    ASSERT_TRUE(p960.ok());
    Position p = play(*p960, {"d4", "d5", "Nd3", "Nd6", "Ne3", "Ne6", "Qd2", "Qd7", "O-O-O", "O-O-O"});
    EXPECT_EQ(to_fen(p), "bbkr3r/pppqpppp/3nn3/3p4/3P4/3NN3/PPPQPPPP/BBKR3R w - - 8 6");
}

TEST(SanN3, CheckAndMateSigns) {
    const Position scholar = play(Position::startpos(), {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
    EXPECT_EQ(move_to_san(scholar, uci(scholar, "h5f7")), "Qxf7#");
    const Position check = play(Position::startpos(), {"e4", "f5"});
    EXPECT_EQ(move_to_san(check, uci(check, "d1h5")), "Qh5+");
    const Position fools = play(Position::startpos(), {"f3", "e5", "g4"});
    EXPECT_EQ(move_to_san(fools, uci(fools, "d8h4")), "Qh4#");
}

TEST(SanN3, ReadsTheMorphyOperaGameAndWritesItBack) {
    const std::vector<std::string> moves = {"e4",   "e5",    "Nf3",   "d6",   "d4",    "Bg4", "dxe5", "Bxf3", "Qxf3",
                                            "dxe5", "Bc4",   "Nf6",   "Qb3",  "Qe7",   "Nc3", "c6",   "Bg5",  "b5",
                                            "Nxb5", "cxb5",  "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1",
                                            "Qe6",  "Bxd7+", "Nxd7",  "Qb8+", "Nxb8",  "Rd8#"};
    Position pos = Position::startpos();
    for (const auto& text : moves) {
        auto m = move_from_san(pos, text);
        ASSERT_TRUE(m.ok()) << text << ": " << m.error().message;
        EXPECT_EQ(move_to_san(pos, *m), text);
        pos.do_move(*m);
    }
    EXPECT_TRUE(pos.is_checkmate());
}

TEST(SanN3, ReadsCastlingVariants) {
    for (std::string_view text : {"O-O", "0-0", "o-o", "OO", "O-O+", "0-0!"})
        EXPECT_EQ(read(Castles, text), "e1g1") << text;
    for (std::string_view text : {"O-O-O", "0-0-0", "o-o-o", "OOO"}) EXPECT_EQ(read(Castles, text), "e1c1") << text;
    // The king's two-square move and king-takes-rook are understood as castling too.
    EXPECT_EQ(read(Castles, "Kg1"), "e1g1");
    EXPECT_EQ(read(Castles, "e1g1"), "e1g1");
    EXPECT_EQ(read(Castles, "Ke1h1"), "e1g1");
    EXPECT_EQ(read("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O"),
              "error: illegal move 'O-O': white has lost the right to castle kingside");
    EXPECT_EQ(read("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O").substr(0, 55),
              "error: illegal move 'O-O-O': white cannot castle queens");
    EXPECT_EQ(read("r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O"),
              "error: illegal move 'O-O': white cannot castle out of check");
}

TEST(SanN3, ReadsEnPassantMarks) {
    for (std::string_view text : {"exd6", "exd6 e.p.", "exd6e.p.", "exd6ep", "exd6 ep", "ed6", "exd6+", "e5d6"})
        EXPECT_EQ(read(EnPassant, text), "e5d6") << text;
}

TEST(SanN3, ReadsPromotionVariants) {
    constexpr std::string_view Promote = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1";
    for (std::string_view text : {"e8=Q", "e8Q", "e8(Q)", "e8/Q", "e8=q", "e8q", "e8=Q#", "e8Q+", "e7e8q", "e7-e8=Q"})
        EXPECT_EQ(read(Promote, text), "e7e8q") << text;
    EXPECT_EQ(read(Promote, "e8=N"), "e7e8n");
    EXPECT_EQ(read(Promote, "e8N"), "e7e8n");
    EXPECT_EQ(read(Promote, "e8=b"), "e7e8b");
    EXPECT_EQ(read(Promote, "e8(R)"), "e7e8r");
    EXPECT_EQ(read(Promote, "e8"), "error: illegal move 'e8': a pawn reaching the last rank must promote (e8=Q)");
    EXPECT_EQ(read(StartFen, "e4=Q"), "error: illegal move 'e4=Q': a pawn promotes only on reaching the last rank");
    EXPECT_EQ(read(Promote, "e8=K"), "error: unreadable move 'e8=K'");
}

TEST(SanN3, ReadsMissingAndSuperfluousCheckSigns) {
    const Position scholar = play(Position::startpos(), {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
    for (std::string_view text : {"Qxf7", "Qxf7+", "Qxf7#", "Qf7", "Qxf7++"})
        EXPECT_EQ(move_to_uci(scholar, move_from_san(scholar, text).value()), "h5f7") << text;
    EXPECT_EQ(read(StartFen, "Nf3+"), "g1f3");
    EXPECT_EQ(read(StartFen, "Nf3#"), "g1f3");
}

TEST(SanN3, ReadsAnnotationGlyphs) {
    for (std::string_view text : {"Nf3!", "Nf3?", "Nf3!!", "Nf3??", "Nf3!?", "Nf3?!", "Nf3+!?"})
        EXPECT_EQ(read(StartFen, text), "g1f3") << text;
}

TEST(SanN3, ReadsSuperfluousDisambiguationAndLongAlgebraic) {
    for (std::string_view text : {"Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Ng1xf3", "g1f3", "g1-f3", "Nf3", "nf3"})
        EXPECT_EQ(read(StartFen, text), "g1f3") << text;
    for (std::string_view text : {"e4", "e2-e4", "e2e4", "Pe4", "e2-e4!"})
        EXPECT_EQ(read(StartFen, text), "e2e4") << text;
    EXPECT_EQ(read(TwoKnights, "Nbd2"), "b1d2");
    EXPECT_EQ(read(TwoKnights, "N1d2"), "b1d2");
    EXPECT_EQ(read(TwoKnights, "Nb1d2"), "b1d2");
    EXPECT_EQ(read(ThreeQueens, "Qa1c3"), "a1c3");
    EXPECT_EQ(read(ThreeQueens, "Q5c3"), "a5c3");
    EXPECT_EQ(read(ThreeQueens, "Qec3"), "e1c3");
    EXPECT_EQ(read(ThreeQueens, "Qe1c3"), "e1c3");
}

TEST(SanN3, ReadsCapturesWithOrWithoutX) {
    const Position pos = play(Position::startpos(), {"e4", "d5"});
    for (std::string_view text : {"exd5", "ed5", "e:d5", "e4xd5", "e4d5"})
        EXPECT_EQ(move_to_uci(pos, move_from_san(pos, text).value()), "e4d5") << text;
    EXPECT_FALSE(move_from_san(pos, "exd").ok());  // the files-only form is not read
    // The knight takes on e5 with or without the x; an x on a quiet move is forgiven.
    const Position knight = play(Position::startpos(), {"Nf3", "e5"});
    EXPECT_EQ(move_to_uci(knight, move_from_san(knight, "Ne5").value()), "f3e5");
    EXPECT_EQ(move_to_uci(knight, move_from_san(knight, "Nxe5").value()), "f3e5");
    EXPECT_EQ(move_to_uci(knight, move_from_san(knight, "Nxd4").value()), "f3d4");
}

TEST(SanN3, LowercaseBIsAPawnFileUppercaseBIsABishop) {
    constexpr std::string_view Both = "4k3/8/8/4B3/8/2n5/1P6/4K3 w - - 0 1";
    EXPECT_EQ(read(Both, "bxc3"), "b2c3");
    EXPECT_EQ(read(Both, "bc3"), "b2c3");
    EXPECT_EQ(read(Both, "Bxc3"), "e5c3");
    EXPECT_EQ(read(Both, "Bc3"), "e5c3");
    EXPECT_EQ(san(Both, "b2c3"), "bxc3");
    EXPECT_EQ(san(Both, "e5c3"), "Bxc3");
}

TEST(SanN3, PawnPushIsPreferredWhenTheFileIsNotGiven) {
    // d5 can be reached by the pawn on d4 (push) and the pawn on e4 (capture): "d5" is the push.
    constexpr std::string_view Fen = "4k3/8/8/3n4/3PP3/8/8/4K3 w - - 0 1";
    EXPECT_EQ(read(Fen, "dxe5"), "error: illegal move 'dxe5': no pawn on the d-file can move to e5");
    constexpr std::string_view Fen2 = "4k3/8/8/2n5/1P1P4/8/8/4K3 w - - 0 1";
    EXPECT_EQ(read(Fen2, "c5"), "error: ambiguous move 'c5': pawns on b4 and d4 can move to c5");
    EXPECT_EQ(read(Fen2, "bxc5"), "b4c5");
    constexpr std::string_view Fen3 = "4k3/8/8/2n5/2PP4/8/8/4K3 w - - 0 1";
    EXPECT_EQ(read(Fen3, "d5"), "d4d5");
    EXPECT_EQ(read(Fen3, "dxc5"), "d4c5");
}

TEST(SanN3, ErrorsSayWhatIsWrong) {
    EXPECT_EQ(error_of(StartFen, "Nf6"), "illegal move 'Nf6': no knight can move to f6");
    EXPECT_EQ(error_of(TwoKnights, "Nd2"), "ambiguous move 'Nd2': knights on b1 and f3 can move to d2");
    EXPECT_EQ(error_of(ThreeQueens, "Qc3"), "ambiguous move 'Qc3': queens on a1, e1 and a5 can move to c3");
    EXPECT_EQ(error_of(ThreeQueens, "Qac3"), "ambiguous move 'Qac3': queens on a1 and a5 can move to c3");
    EXPECT_EQ(error_of(StartFen, "Zz9"), "unreadable move 'Zz9'");
    EXPECT_EQ(error_of(StartFen, ""), "unreadable move ''");
    EXPECT_EQ(error_of(StartFen, "e9"), "unreadable move 'e9'");
    EXPECT_EQ(error_of(StartFen, "Ng1f3f4"), "unreadable move 'Ng1f3f4'");
    EXPECT_EQ(error_of(StartFen, "Ke2"), "illegal move 'Ke2': no king can move to e2");
    EXPECT_EQ(error_of(StartFen, "Nh1f3"), "illegal move 'Nh1f3': no knight on h1 can move to f3");
    EXPECT_EQ(error_of("4k3/8/8/8/8/8/4r3/4K1N1 w - - 0 1", "Nf3"),
              "illegal move 'Nf3': no knight can move to f3 (white is in check)");
}

TEST(SanP17, LocalisedPieceLettersAndFigurines) {
    const Position scholar = play(Position::startpos(), {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
    const Move mate = uci(scholar, "h5f7");
    EXPECT_EQ(move_to_san(scholar, mate, SanOptions::with(FinnishLetters)), "Dxf7#");
    EXPECT_EQ(move_to_san(scholar, mate, SanOptions::with(GermanLetters)), "Dxf7#");
    EXPECT_EQ(move_to_san(scholar, mate, SanOptions::with(ChineseLetters)), "后xf7#");
    EXPECT_EQ(move_to_san(scholar, mate, SanOptions::figurines()), "♕xf7#");
    EXPECT_EQ(san(StartFen, "g1f3", SanOptions::with(FinnishLetters)), "Rf3");
    EXPECT_EQ(san(StartFen, "g1f3", SanOptions::with(GermanLetters)), "Sf3");
    EXPECT_EQ(san(StartFen, "g1f3", SanOptions::with(ChineseLetters)), "马f3");
    EXPECT_EQ(san(StartFen, "g1f3", SanOptions::figurines()), "♘f3");
    EXPECT_EQ(san(StartFen, "g1f3", SanOptions::with(ThaiLetters)), "Nf3");
    EXPECT_EQ(san("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 2 2", "c6e5", SanOptions::figurines()),
              "♞e5");
    EXPECT_EQ(
        san("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 2 2", "c6e5", SanOptions::with(WhiteFigurines)),
        "♘e5");
    // Pawns have no letter; promotions, disambiguation and castling keep their form.
    EXPECT_EQ(san("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", "e7e8q", SanOptions::with(FinnishLetters)), "e8=D#");
    EXPECT_EQ(san("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", "e7e8n", SanOptions::figurines()), "e8=♘");
    EXPECT_EQ(san(TwoKnights, "b1d2", SanOptions::with(FinnishLetters)), "Rbd2");
    EXPECT_EQ(san(TwoRooksOnAFile, "a1a3", SanOptions::with(FinnishLetters)), "T1a3");
    EXPECT_EQ(san(Castles, "e1c1", SanOptions::with(FinnishLetters)), "O-O-O");
    // Language codes of P17.
    EXPECT_EQ(piece_letters_for("fi"), FinnishLetters);
    EXPECT_EQ(piece_letters_for("zh"), ChineseLetters);
    EXPECT_EQ(piece_letters_for("en"), EnglishLetters);
    EXPECT_EQ(piece_letters_for("th"), EnglishLetters);
    EXPECT_EQ(piece_letters_for("ja"), EnglishLetters);
    EXPECT_EQ(piece_letters_for("mr"), EnglishLetters);
    EXPECT_EQ(piece_letters_for("figurine"), WhiteFigurines);
    EXPECT_FALSE(piece_letters_for("xx").has_value());
}

TEST(SanN3, IllegalMoveIsWrittenInUciForm) { EXPECT_EQ(move_to_san(Position::startpos(), Move(SQ_E2, SQ_E5)), "e2e5"); }

// Property: over random games from the start position and from random Chess960
// starts, every legal move's SAN is unique in its position and reads back as the move.
TEST(SanN3, RoundTripOverRandomPlayouts) {
    std::mt19937 rng(20240601);
    int moves_checked = 0;
    for (int game = 0; game < 300; ++game) {
        Position pos = Position::startpos();
        if (game % 2) {
            auto p = chess960_position(int(rng() % 960));
            ASSERT_TRUE(p.ok());
            pos = *p;
        }
        for (int ply = 0; ply < 200; ++ply) {
            const MoveList legal = legal_moves(pos);
            if (legal.empty()) break;
            std::set<std::string> seen;
            for (Move m : legal) {
                const std::string text = move_to_san(pos, m);
                ASSERT_TRUE(seen.insert(text).second) << "duplicate SAN " << text << " in " << to_fen(pos);
                auto back = move_from_san(pos, text);
                ASSERT_TRUE(back.ok()) << text << " in " << to_fen(pos) << ": " << back.error().message;
                ASSERT_EQ(*back, m) << text << " in " << to_fen(pos);
                ++moves_checked;
            }
            pos.do_move(legal[int(rng() % unsigned(legal.size()))]);
        }
    }
    EXPECT_GT(moves_checked, 100000);
}
