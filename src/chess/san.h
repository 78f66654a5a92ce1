// Outpost — Standard Algebraic Notation (N3, R17), with localised piece letters
// and figurines for display (P17).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Writing gives the exact standard form (Nbd7, exd6, e8=Q+, O-O-O, Qxf7#). Reading
// is tolerant of what people and other programs write (0-0, e.p., e8Q, missing or
// extra +/#, !? annotations, superfluous disambiguation, long algebraic). Only
// English letters are read; localised letters are for display, and PGN always uses
// English SAN.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost {

// The names of king, queen, rook, bishop and knight, in that order. Strings rather
// than chars: Chinese letters and figurines take several bytes of UTF-8. They are
// views so that the constants below can be constexpr; custom letters must outlive
// the options that refer to them.
using PieceLetters = std::array<std::string_view, 5>;

// FIDE Laws Appendix C.3: the first letter of the piece's name in the language, as
// players of that language write it.
inline constexpr PieceLetters EnglishLetters{"K", "Q", "R", "B", "N"};
// Kuningas, Daami (Kuningatar), Torni, Lähetti, Ratsu.
inline constexpr PieceLetters FinnishLetters{"K", "D", "T", "L", "R"};
// König, Dame, Turm, Läufer, Springer: the letters of the FIDE phonetic alphabet used
// when announcing moves to blind players (P16).
inline constexpr PieceLetters GermanLetters{"K", "D", "T", "L", "S"};
// Simplified Chinese as printed in Chinese chess books and magazines: 王 king,
// 后 queen, 车 rook, 象 bishop, 马 knight (e.g. 马f3).
inline constexpr PieceLetters ChineseLetters{"王", "后", "车", "象", "马"};
// Thai, Japanese and Marathi: we found no single-letter piece names in common use in
// printed notation for these languages (players write K Q R B N, or figurines), so
// they keep the English letters until a native speaker tells us otherwise. The piece
// names (ขุน/ควีน/เรือ/บิชอป/ม้า, キング/クイーン/ルーク/ビショップ/ナイト,
// राजा/वजीर/हत्ती/उंट/घोडा) belong in the UI's spoken and written text, not here.
inline constexpr PieceLetters ThaiLetters = EnglishLetters;
inline constexpr PieceLetters JapaneseLetters = EnglishLetters;
inline constexpr PieceLetters MarathiLetters = EnglishLetters;
// Figurine algebraic notation: one set per colour, or WhiteFigurines for both.
inline constexpr PieceLetters WhiteFigurines{"♔", "♕", "♖", "♗", "♘"};
inline constexpr PieceLetters BlackFigurines{"♚", "♛", "♜", "♝", "♞"};

// The letters for a language code of P17 ("en", "fi", "th", "zh", "ja", "mr"; also
// "de" and "figurine"), or nullopt for a code we do not know.
std::optional<PieceLetters> piece_letters_for(std::string_view language);

struct SanOptions {
    PieceLetters white = EnglishLetters;  // letters for white's moves
    PieceLetters black = EnglishLetters;  // letters for black's moves (differ only for figurines)

    static constexpr SanOptions with(const PieceLetters& letters) { return {letters, letters}; }
    static constexpr SanOptions figurines() { return {WhiteFigurines, BlackFigurines}; }
};

// The SAN of a legal move m in pos. Castling is written O-O / O-O-O in Chess960 too.
// A move that is not legal in pos comes back in UCI form, so that a caller's bug shows
// in the output instead of corrupting it.
std::string move_to_san(const Position& pos, Move m, const SanOptions& opts = {});

// Reads a move in SAN (tolerantly, see above) and checks it against the legal moves
// of pos. Errors say what is wrong: "illegal move 'Nf6': no knight can move to f6",
// "ambiguous move 'Nd2': knights on b1 and f3 can move to d2", "unreadable move 'Zz9'".
Result<Move> move_from_san(const Position& pos, std::string_view text);

}  // namespace outpost
