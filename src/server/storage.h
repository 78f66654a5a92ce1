// Outpost — game storage in SQLite (SPEC D1, D3).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A game row and one row per move. Every write is a committed transaction before the
// caller acknowledges anything, and the database runs in WAL mode with
// synchronous=NORMAL: a kill -9 of the server at any moment loses nothing that was
// acknowledged (an operating-system crash may lose the last moments; FULL closes that
// too at some cost, see --sync-full).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <thread>
#include <mutex>
#include <condition_variable>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace outpost::server {

struct StoredMove {
    int ply = 0;
    std::string uci;
    std::int64_t white_ms = 0, black_ms = 0;  // clocks after the move
    std::int64_t at_ms = 0;                   // wall-clock time of the move (ms since 1970)
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
    std::vector<StoredMove> moves;
};

class Storage {
public:
    // Opens (creating if needed) the database; ":memory:" for tests.
    static Result<std::unique_ptr<Storage>> open(const std::string& path, bool sync_full = false);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    Result<bool> insert_game(const StoredGame& g);
    // Updates the game row (not its moves).
    Result<bool> update_game(const StoredGame& g);
    // Appends a move and updates the game row in one transaction.
    Result<bool> append_move(const StoredGame& g, const StoredMove& m);
    // Removes moves after `ply` (takeback) and updates the game row.
    Result<bool> truncate_moves(const StoredGame& g, int ply);

    Result<std::optional<StoredGame>> load_game(const std::string& id);
    Result<std::vector<StoredGame>> load_live_games();
    // The games a seat token belongs to (newest first), without their moves.
    Result<std::vector<StoredGame>> games_for_tokens(const std::vector<std::string>& tokens, int limit = 100);

private:
    explicit Storage(sqlite3* db) : db_(db) {}
    Result<bool> exec(const char* sql);
    Result<bool> write_game_row(const StoredGame& g, bool insert);
    std::vector<StoredGame> read_games(const char* sql, const std::vector<std::string>& params, bool with_moves);

    // Prepared once per SQL text; keyed by the text's address, so `sql` must be a
    // literal or a string that lives as long as the program.
    sqlite3_stmt* cached(const char* sql);

    sqlite3* db_;
    std::unordered_map<const char*, sqlite3_stmt*> cache_;

    // Checkpoints (copying the WAL into the database file, with an fsync) run on a
    // thread of their own with a connection of their own, so that no move's commit
    // ever waits for an fsync.
    void checkpoint_loop(std::string path);
    std::thread checkpointer_;
    std::mutex stop_mutex_;
    std::condition_variable stop_cv_;
    bool stopping_ = false;
};

}  // namespace outpost::server
