// Outpost — game storage (SPEC D1, D2, D3): the interface the hub writes to, and the
// records it writes. SQLite implements it (stores/sqlite/sqlite_games.cpp); PostgreSQL can later
// implement the same interface without touching rooms or rules.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Writes come in batches (GameWrite lists): a batch is one transaction, durable when
// write() returns. The hub does not call write() itself: a StorageWriter (writer.h)
// collects the writes of many games into batches on a thread of its own (group
// commit) and tells the hub when each is durable, so that a slow fsync holds back one
// batch of acknowledgements, not the hub.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"
#include "server/stores/rating_store.h"

namespace outpost::server {

struct StoredMove {
    int ply = 0;
    std::string uci;
    std::int64_t white_ms = 0, black_ms = 0;  // clocks after the move
    std::int64_t at_ms = 0;                   // wall-clock time of the move (ms since 1970)
    std::int64_t clock_after = -2;            // the mover's clock after the move for the PGN's [%clk];
                                              // -1: not timed; -2: not stored (rows of older versions)
};

// What a rated game did to both ratings, stored with it (in the same transaction as
// the game's row, once: a game whose ratings are stored is never rated again).
struct GameRating {
    struct Side {
        std::int64_t account = 0;
        int before = 0;            // the rating shown before the game (rounded)
        bool provisional = false;  // ... was provisional (RD > 110)
        int diff = 0;              // rounded after − rounded before
        StoredRating after;        // the account's new rating in the class
    };
    std::string rating_class;
    Side side[2];  // WHITE, BLACK
};

// Everything needed to bring a game back after a restart.
struct StoredGame {
    std::string id;
    std::int64_t created_ms = 0, updated_ms = 0;
    std::string white_token, black_token;
    std::string white_kind, black_kind;  // "human" | "robot"
    std::string white_name, black_name;
    int robot_level = 0, robot_elo = 0;
    std::string time_control;             // compact form
    std::string variant;                  // "standard" | "chess960"
    int chess960 = -1;
    std::string initial_fen;
    bool casual = false;
    std::string status = "ongoing", result = "*";
    std::string draw_offer;               // "", "white", "black"
    std::string takeback_request;
    std::string offer_plies;              // comma-separated plies of draw offers
    std::int64_t white_ms = 0, black_ms = 0;  // clocks when the running clock last started
    std::string running;                  // "", "white", "black"
    std::int64_t turn_started_ms = 0;     // wall clock when the running clock started
    std::string rematch_of, rematch_game;
    std::string rematch_white_token, rematch_black_token;  // the seat in the rematch of this game's white / black
    std::string client;                   // who created it, while unfinished (open-games cap; Hub::open_keys)
    // The account of each seat (P21): set when a signed-in player creates or takes the
    // seat; 0 (NULL in the database) for robots, anonymous players and hotseat games.
    std::int64_t white_account = 0, black_account = 0;
    // R18/P19 and C3 (issue 12): the adjournment option, the envelope and resumption
    // (JSON, server/adjournment.h; "" for none), the wall-clock time at which the
    // running side's flag falls (0: none), and a resumption time an administrator set
    // from the command line (`outpost game resume`; written only there).
    bool adjournable = false;
    std::string adjournment;
    std::int64_t deadline_ms = 0;
    std::int64_t arbiter_resume_ms = 0;
    // R14 (issue 13): what happens to a side that does not make its first move in time.
    // "": the online default, the game is aborted; "forfeit": an event's board, the side
    // loses by forfeit; "forfeit-host-white" / "forfeit-host-black": a simul's board, the
    // same, with the host (who walks from board to board) given unstarted_abort_ms.
    std::string first_move;
    // P23: the ratings this game changed (read from the ratings tables, not the row);
    // a write that carries it stores it unless the game's ratings are stored already.
    std::optional<GameRating> rating;
    // Issue 26: the fencing token of the node's lease that writes the game (0: one node,
    // no leases). A store refuses a write whose token is lower than the highest that
    // has written the game (a node paused past its lease cannot write over its
    // successor); loaded, the highest so far.
    std::int64_t fence = 0;
    std::vector<StoredMove> moves;
};

// Issue 26: the error of a write refused by its fencing token.
inline std::string fenced_message(const StoredGame& g) {
    return "game " + g.id + " is run by another node now (fencing token " + std::to_string(g.fence) +
           " is older than the one that last wrote it): write refused";
}

// One write of the hub. INSERT_GAME stores the row and its moves (a game started from
// a PGN has some); UPDATE_GAME the row only; APPEND_MOVE a move and the row;
// TRUNCATE_MOVES removes the moves after `ply` (takeback) and updates the row.
struct GameWrite {
    enum Kind : std::uint8_t { INSERT_GAME, UPDATE_GAME, APPEND_MOVE, TRUNCATE_MOVES } kind = UPDATE_GAME;
    StoredGame game;
    StoredMove move;
    int ply = 0;
};

// A game as the "My games" list shows it.
struct StoredSummary {
    StoredGame game;  // without moves
    int moves = 0;    // plies played
};

// A finished game's analysis (issue 10, docs/protocol.md "Analysis"): the JSON the
// server answers with, stored once so that it is never computed twice.
struct StoredAnalysis {
    std::string game_id;
    std::string settings;  // what the engine was given ("nodes 80000")
    std::string json;      // the "analysis" object of docs/protocol.md
    std::int64_t created_ms = 0;
};

// The game store is also the ratings' (RatingStore): a rated game's ratings are
// written in the transaction of the write that ends it (GameWrite::game.rating), so the
// two cannot be apart; a store that keeps none answers the reads with an error.
class Storage : public RatingStore {
public:
    // Opens (creating if needed) the SQLite database; ":memory:" for tests.
    static Result<std::unique_ptr<Storage>> open(const std::string& path, bool sync_full = false);
    virtual ~Storage() = default;

    // Applies the writes in one transaction: all or none, durable on return.
    virtual Result<bool> write(const std::vector<GameWrite>& batch) = 0;
    Result<bool> write(GameWrite w) { return write(std::vector<GameWrite>{std::move(w)}); }

    // A game with its moves; nullopt when there is none with that id; an error when
    // the database could not be read (never "no game").
    virtual Result<std::optional<StoredGame>> load_game(const std::string& id) = 0;
    virtual Result<std::vector<StoredGame>> load_live_games() = 0;
    // The games seat tokens belong to (newest first), without their moves.
    // The ids of the finished standard-chess games with a result (not aborted), oldest
    // first: what `outpost puzzles make --db` cuts puzzles from (issue 29).
    virtual Result<std::vector<std::string>> finished_standard_game_ids() {
        return make_error("this store cannot list finished games");
    }
    virtual Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& tokens, int limit = 100) = 0;
    // The games an account played (P21 profiles): newest first, at most `limit`, without
    // moves (`moves` counts the plies). A store without accounts says so with an error.
    virtual Result<std::vector<StoredSummary>> games_of_account(std::int64_t, int) {
        return make_error("this store keeps no accounts");
    }
    // Analyses: one per game (a second store replaces the first). A store that keeps
    // none says so with an error; load answers nullopt when there is none.
    virtual Result<bool> store_analysis(const StoredAnalysis&) { return make_error("this store keeps no analyses"); }
    virtual Result<std::optional<StoredAnalysis>> load_analysis(const std::string&) { return std::optional<StoredAnalysis>{}; }
    // R18: the arbiter's resumption time of an adjourned game (`outpost game resume`):
    // set from the command line, read by the server while the game is adjourned.
    virtual Result<bool> set_arbiter_resume(const std::string&, std::int64_t) { return make_error("this store keeps no adjournments"); }
    virtual Result<std::int64_t> arbiter_resume_at(const std::string&) { return std::int64_t(0); }
    // P23 (RatingStore): a store without ratings says so with an error.
    Result<std::vector<StoredRating>> ratings_of(std::int64_t) override { return make_error("this store keeps no ratings"); }
    Result<std::vector<RatingPoint>> rating_history(std::int64_t, int) override { return make_error("this store keeps no ratings"); }
    // Called by the StorageWriter between two batches, after the first one's
    // completions ran: upkeep that may take a moment (SQLite: a checkpoint that lets
    // the write-ahead log start over) without holding back acknowledgements already due.
    virtual void after_batch() {}
    // The bytes the write-ahead log file holds now (0 for a store without one).
    virtual std::int64_t log_bytes() const { return 0; }
};

}  // namespace outpost::server
