// Outpost — `outpost pgn replay FILE...` and `outpost pgn from-uci [--fen FEN] [--chess960] MOVE...`.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "chess/fen.h"
#include "chess/game.h"
#include "chess/pgn.h"
#include "chess/uci.h"

namespace outpost::app {
namespace {

// One line per game, tab-separated: number, Result tag, plies on the main line, final
// FEN, the status after the last move (an automatic ending or `ongoing`), and the
// draws the player to move could claim (`-` for none). Every field is printed here.
void print_replayed_game(std::ostream& out, int number, const PgnGame& pgn, const Game& game) {
    std::string claims;
    for (DrawClaim c : game.claimable_draws()) claims += (claims.empty() ? "" : ",") + std::string(claim_id(c));
    out << number << '\t' << pgn.tag("Result").value_or("*") << '\t' << pgn.moves.size() << '\t'
        << to_fen(game.position()) << '\t' << status_id(game.status()) << '\t' << (claims.empty() ? "-" : claims)
        << '\n';
}

// Plays the main line under the Laws (strict claims). A move after an automatic
// ending (mate, stalemate, dead position, fivefold, 75 moves) is an error.
Result<Game> referee(const PgnGame& pgn) {
    Game game(pgn.start);
    const std::vector<Move> moves = pgn.mainline();
    for (size_t i = 0; i < moves.size(); ++i) {
        const Position& pos = game.position();
        if (game.is_over()) {
            return make_error("move " + std::to_string(pos.fullmove_number()) +
                              (pos.side_to_move() == WHITE ? " (white)" : " (black)") + ": '" + pgn.moves[i].san +
                              "' comes after the game ended: " + describe(game.outcome()) + " (" +
                              std::string(status_id(game.status())) + ")");
        }
        if (auto played = game.play(moves[i]); !played) return played.error();
    }
    return game;
}

int replay(const std::vector<std::string>& files) {
    int number = 0;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::cerr << "outpost pgn replay: cannot open " << file << "\n";
            return 1;
        }
        std::ostringstream buffer;
        buffer << in.rdbuf();
        if (in.bad()) {
            std::cerr << "outpost pgn replay: cannot read " << file << "\n";
            return 1;
        }
        const std::string text = buffer.str();
        PgnReader reader(text);
        while (auto game = reader.next()) {
            if (!*game) {
                // Games are numbered within the file here: with the file name and line
                // that is what finds the game.
                std::cout.flush();
                std::cerr << "outpost pgn replay: " << file << ": " << game->error().message << "\n";
                return 1;
            }
            auto refereed = referee(**game);
            if (!refereed) {
                std::cout.flush();
                std::cerr << "outpost pgn replay: " << file << ": game " << reader.game_number() << ", "
                          << refereed.error().message << "\n";
                return 1;
            }
            print_replayed_game(std::cout, ++number, **game, *refereed);
        }
    }
    return 0;
}

int from_uci(const std::string& fen, bool chess960, const std::vector<std::string>& moves) {
    auto start = position_from_fen(fen, chess960);
    if (!start) {
        std::cerr << "outpost pgn from-uci: bad FEN: " << start.error().message << "\n";
        return 1;
    }
    std::vector<Move> parsed;
    Position pos = *start;
    for (size_t i = 0; i < moves.size(); ++i) {
        auto m = move_from_uci(pos, moves[i]);
        if (!m) {
            std::cerr << "outpost pgn from-uci: move " << i + 1 << " (" << pos.fullmove_number()
                      << (pos.side_to_move() == WHITE ? ". white" : "... black") << "): " << m.error().message << "\n";
            return 1;
        }
        parsed.push_back(*m);
        pos.do_move(*m);
    }
    auto game = make_pgn_game(*start, parsed);
    if (!game) {  // cannot happen: every move was checked above
        std::cerr << "outpost pgn from-uci: " << game.error().message << "\n";
        return 1;
    }
    std::cout << write_movetext(*game) << "\n";
    return 0;
}

}  // namespace

void add_pgn_command(CLI::App& parent, std::function<int()>& run) {
    CLI::App* pgn = parent.add_subcommand("pgn", "Read and write PGN");
    pgn->require_subcommand(1);

    auto files = std::make_shared<std::vector<std::string>>();
    CLI::App* replay_cmd = pgn->add_subcommand(
        "replay", "Replay every game of PGN files; print number, result, plies and final FEN per game");
    replay_cmd->add_option("files", *files, "PGN files")->required();
    replay_cmd->callback([files, &run] { run = [files] { return replay(*files); }; });

    struct FromUci {
        std::string fen{StartFen};
        bool chess960 = false;
        std::vector<std::string> moves;
    };
    auto opts = std::make_shared<FromUci>();
    CLI::App* from_uci_cmd = pgn->add_subcommand("from-uci", "Print UCI moves as SAN movetext with move numbers");
    from_uci_cmd->add_option("--fen", opts->fen, "Start position (FEN, X-FEN or Shredder-FEN)");
    from_uci_cmd->add_flag("--chess960", opts->chess960, "Chess960 castling notation (king takes rook)");
    from_uci_cmd->add_option("moves", opts->moves, "Moves in UCI notation (e2e4, e7e8q)");
    from_uci_cmd->callback([opts, &run] { run = [opts] { return from_uci(opts->fen, opts->chess960, opts->moves); }; });

    add_pgn_analysis_commands(*pgn, run);
}

}  // namespace outpost::app
