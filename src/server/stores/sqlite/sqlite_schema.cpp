// Outpost — the SQLite schema's versions and migrations (sqlite_schema.h), and
// `outpost db status` / `migrate` over them (stores/schema.h).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A migration is appended, never edited: a database at version N has had exactly the
// first N applied. A new column or table is a new migration with the next number.
#include "server/stores/sqlite/sqlite_schema.h"
#include "server/stores/schema.h"

#include <filesystem>
#include <utility>

namespace outpost::server {
namespace sqlite_schema {
namespace {

// Version 1: the tables as the server made them before schema versions, each store
// creating its own with CREATE TABLE IF NOT EXISTS. A database of that time (user_version
// 0) may hold any part of them, and a games table from before the columns added since
// the first release: the statements are idempotent, the missing columns are added.
constexpr const char* BaselineTables = R"sql(
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL,
  white_kind TEXT NOT NULL, black_kind TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL,
  robot_level INTEGER NOT NULL, robot_elo INTEGER NOT NULL,
  time_control TEXT NOT NULL, variant TEXT NOT NULL, chess960 INTEGER NOT NULL,
  initial_fen TEXT NOT NULL, casual INTEGER NOT NULL,
  status TEXT NOT NULL, result TEXT NOT NULL,
  draw_offer TEXT NOT NULL, takeback_request TEXT NOT NULL, offer_plies TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
  running TEXT NOT NULL, turn_started_ms INTEGER NOT NULL,
  rematch_of TEXT NOT NULL, rematch_game TEXT NOT NULL,
  rematch_white_token TEXT NOT NULL DEFAULT '', rematch_black_token TEXT NOT NULL DEFAULT '',
  client TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_white_token ON games(white_token);
CREATE INDEX IF NOT EXISTS games_black_token ON games(black_token);
CREATE TABLE IF NOT EXISTS moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, uci TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  clock_ms INTEGER NOT NULL DEFAULT -2,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
  game_id TEXT PRIMARY KEY, settings TEXT NOT NULL, json TEXT NOT NULL, created_ms INTEGER NOT NULL
);
-- ratings: an account's current rating per class. rating_history: one row per side of
-- each rated game (the chart's points, and what the game shows: the rating before and
-- the difference); its key (game_id, color) is what makes rating a game happen once.
CREATE TABLE IF NOT EXISTS ratings (
  account_id INTEGER NOT NULL, class TEXT NOT NULL,
  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
  games INTEGER NOT NULL, last_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, class)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rating_history (
  game_id TEXT NOT NULL, color TEXT NOT NULL, account_id INTEGER NOT NULL, class TEXT NOT NULL,
  at_ms INTEGER NOT NULL, before INTEGER NOT NULL, provisional INTEGER NOT NULL, diff INTEGER NOT NULL,
  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,
  PRIMARY KEY (game_id, color)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account_id, at_ms);
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  admin INTEGER NOT NULL DEFAULT 0, disabled INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
CREATE TABLE IF NOT EXISTS simuls (
  id TEXT PRIMARY KEY,
  host_account INTEGER NOT NULL,
  status TEXT NOT NULL,
  updated_ms INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS simuls_status ON simuls(status, updated_ms);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, organiser INTEGER NOT NULL, organiser_name TEXT NOT NULL,
  system TEXT NOT NULL, rounds INTEGER NOT NULL, time_control TEXT NOT NULL,
  rated INTEGER NOT NULL, online INTEGER NOT NULL, tiebreaks TEXT NOT NULL,
  initial_colour TEXT NOT NULL, created_ms INTEGER NOT NULL,
  current_round INTEGER NOT NULL, round_starts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS event_players (
  event_id INTEGER NOT NULL REFERENCES events(id), start_rank INTEGER NOT NULL,
  account_id INTEGER NOT NULL, name TEXT NOT NULL, rating INTEGER NOT NULL,
  withdrawn_from INTEGER NOT NULL, joined_in INTEGER NOT NULL, byes TEXT NOT NULL,
  PRIMARY KEY (event_id, start_rank)
);
CREATE TABLE IF NOT EXISTS event_boards (
  event_id INTEGER NOT NULL REFERENCES events(id), round INTEGER NOT NULL, board INTEGER NOT NULL,
  white INTEGER NOT NULL, black INTEGER NOT NULL, game_id TEXT NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL, result TEXT NOT NULL, note TEXT NOT NULL,
  PRIMARY KEY (event_id, round, board)
);
)sql";

// The games' columns added after the first release (before schema versions), for the
// databases made before them.
constexpr std::pair<const char*, const char*> BaselineAddedColumns[] = {
    {"games", "rematch_white_token TEXT NOT NULL DEFAULT ''"},
    {"games", "rematch_black_token TEXT NOT NULL DEFAULT ''"},
    {"moves", "clock_ms INTEGER NOT NULL DEFAULT -2"},
    {"games", "client TEXT NOT NULL DEFAULT ''"},
    {"games", "white_account INTEGER"},  // accounts.id of the seat (P21); NULL: none
    {"games", "black_account INTEGER"},
    {"games", "adjournable INTEGER NOT NULL DEFAULT 0"},  // R18 (issue 12)
    {"games", "adjournment TEXT NOT NULL DEFAULT ''"},
    {"games", "deadline_ms INTEGER NOT NULL DEFAULT 0"},  // C3
    {"games", "arbiter_resume_ms INTEGER NOT NULL DEFAULT 0"},
    {"games", "first_move TEXT NOT NULL DEFAULT ''"},  // R14 on event and simul boards (issue 13)
};
// Indexes on added columns: made after the columns exist.
constexpr const char* BaselineAddedIndexes =
    "CREATE INDEX IF NOT EXISTS games_white_account ON games(white_account) WHERE white_account IS NOT NULL;"
    "CREATE INDEX IF NOT EXISTS games_black_account ON games(black_account) WHERE black_account IS NOT NULL;";

Result<bool> baseline(Connection& c) {
    if (auto r = c.exec(BaselineTables); !r) return r;
    for (const auto& [table, column] : BaselineAddedColumns) {
        const std::string name = std::string(column).substr(0, std::string(column).find(' '));
        Statement info(c.db, (std::string("SELECT 1 FROM pragma_table_info('") + table + "') WHERE name=?1").c_str());
        info.bind(1, name);
        if (info.step() == SQLITE_ROW) continue;
        const std::string alter = std::string("ALTER TABLE ") + table + " ADD COLUMN " + column;
        if (auto r = c.exec(alter.c_str()); !r) return r;
    }
    return c.exec(BaselineAddedIndexes);
}

// Version 2 (SPEC D9, the admin page): the audit log of admin actions, the reports
// players send, and the arbiters' reasons for the games they ended.
constexpr const char* AdminTables = R"sql(
CREATE TABLE IF NOT EXISTS admin_audit (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL, admin_account INTEGER NOT NULL, admin_name TEXT NOT NULL,
  action TEXT NOT NULL, target TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reports (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL, reporter_account INTEGER NOT NULL, reporter_name TEXT NOT NULL,
  kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL,
  state TEXT NOT NULL, resolved_ms INTEGER NOT NULL DEFAULT 0, resolved_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS reports_state ON reports(state, id);
CREATE INDEX IF NOT EXISTS reports_reporter ON reports(reporter_account, at_ms);
CREATE TABLE IF NOT EXISTS arbiter_decisions (
  game_id TEXT PRIMARY KEY, reason TEXT NOT NULL
) WITHOUT ROWID;
)sql";

// Idempotent, as the baseline is (a test may set user_version back on a database that
// has the tables).
Result<bool> admin_tables(Connection& c) {
    if (auto r = c.exec(AdminTables); !r) return r;
    Statement info(c.db, "SELECT 1 FROM pragma_table_info('events') WHERE name='closed_ms'");
    if (info.step() == SQLITE_ROW) return true;
    return c.exec("ALTER TABLE events ADD COLUMN closed_ms INTEGER NOT NULL DEFAULT 0");
}

// Version 3 (issue 29): puzzles, their themes, each account's puzzle rating and its
// attempts, and the finished games the background generator has looked at.
constexpr const char* PuzzleTables = R"sql(
CREATE TABLE IF NOT EXISTS puzzles (
  id TEXT PRIMARY KEY, fen TEXT NOT NULL, moves TEXT NOT NULL, themes TEXT NOT NULL,
  game_url TEXT NOT NULL, opening_tags TEXT NOT NULL, position_key TEXT NOT NULL UNIQUE,
  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
  popularity INTEGER NOT NULL, plays INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles(rating);
CREATE TABLE IF NOT EXISTS puzzle_themes (
  puzzle TEXT NOT NULL, theme TEXT NOT NULL, PRIMARY KEY (puzzle, theme)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS puzzle_themes_theme ON puzzle_themes(theme);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
  account INTEGER PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
  last_ms INTEGER NOT NULL, attempts INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
  id INTEGER PRIMARY KEY, account INTEGER NOT NULL, puzzle TEXT NOT NULL, at_ms INTEGER NOT NULL,
  solved INTEGER NOT NULL, rated INTEGER NOT NULL, moves TEXT NOT NULL,
  rating_before REAL NOT NULL, rating_after REAL NOT NULL, puzzle_rating INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_account ON puzzle_attempts(account, id);
CREATE INDEX IF NOT EXISTS puzzle_attempts_puzzle ON puzzle_attempts(account, puzzle);
CREATE TABLE IF NOT EXISTS puzzle_scanned_games (
  game_id TEXT PRIMARY KEY, puzzles INTEGER NOT NULL
) WITHOUT ROWID;
)sql";

Result<bool> puzzle_tables(Connection& c) { return c.exec(PuzzleTables); }

// Version 4 (issue 26): the highest fencing token that has written each game (a node's
// lease; 0: written by one node without leases).
Result<bool> game_fence(Connection& c) {
    Statement info(c.db, "SELECT 1 FROM pragma_table_info('games') WHERE name='fence'");
    if (info.step() == SQLITE_ROW) return true;
    return c.exec("ALTER TABLE games ADD COLUMN fence INTEGER NOT NULL DEFAULT 0");
}

// Version 5 (issue 26): the highest fencing token of the domains lease that has written
// the events and simuls (stores/domains_fence.h).
Result<bool> fences_table(Connection& c) {
    return c.exec("CREATE TABLE IF NOT EXISTS fences (name TEXT PRIMARY KEY, token INTEGER NOT NULL) WITHOUT ROWID;");
}

constexpr Migration Migrations[] = {
    {1, "the tables of games, moves, analyses, ratings, accounts, sessions, simuls and events", baseline},
    {2, "the admin page's audit log, players' reports, arbiters' decisions and closed events", admin_tables},
    {3, "puzzles, their themes, puzzle ratings and attempts, and the games the puzzle generator has read", puzzle_tables},
    {4, "the fencing token of the node that last wrote each game (several nodes)", game_fence},
    {5, "the fencing token of the node that last wrote the events and simuls (several nodes)", fences_table},
};

Error newer_error(const std::string& path, int database) {
    return make_error("the database " + path + " has schema version " + std::to_string(database) +
                      ", newer than this program's " + std::to_string(program_version()) +
                      ": run a newer outpost with it (or restore a backup made before the upgrade)");
}

}  // namespace

std::span<const Migration> migrations() { return Migrations; }
int program_version() { return Migrations[std::size(Migrations) - 1].version; }

Result<int> database_version(Connection& c) {
    Statement s(c.db, "PRAGMA user_version;");
    if (!s.ok() || s.step() != SQLITE_ROW) return db_error(c.db, "read the schema version");
    return int(s.integer(0));
}

Result<bool> migrate(Connection& c, const std::string& path) {
    // Most opens find the database up to date: no write transaction for them.
    auto seen = database_version(c);
    if (!seen) return seen.error();
    if (*seen > program_version()) return newer_error(path, *seen);
    if (*seen == program_version()) return true;
    return c.transaction([&]() -> Result<bool> {
        auto now = database_version(c);  // another connection may have migrated meanwhile
        if (!now) return now.error();
        if (*now > program_version()) return newer_error(path, *now);
        for (const Migration& m : Migrations) {
            if (m.version <= *now) continue;
            if (auto r = m.apply(c); !r) return make_error("migration " + std::to_string(m.version) + ": " + r.error().message);
        }
        return c.exec(("PRAGMA user_version=" + std::to_string(program_version()) + ";").c_str());
    });
}

}  // namespace sqlite_schema

Result<bool> Connection::open_store(const std::string& path, bool sync_full) {
    auto opened = open_connection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!opened) return opened.error();
    db = *opened;
    // Issue 25: SQLite's default (FULL) made each simul or account write wait for a disk
    // flush, and the moves' batches behind it on the same file.
    if (path != ":memory:")
        for (const char* sql : {"PRAGMA journal_mode=WAL;", sync_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;"})
            if (auto r = exec(sql); !r) return r;
    return sqlite_schema::migrate(*this, path);
}

namespace {

SchemaStatus status_at(int database) {
    SchemaStatus s;
    s.database = database;
    s.program = sqlite_schema::program_version();
    for (const sqlite_schema::Migration& m : sqlite_schema::migrations())
        if (m.version > database) s.pending.push_back(std::to_string(m.version) + ": " + m.what);
    return s;
}

}  // namespace

Result<SchemaStatus> schema_status(const std::string& path) {
    std::error_code ec;
    if (path != ":memory:" && !std::filesystem::exists(path, ec)) return status_at(0);
    auto opened = open_connection(path, SQLITE_OPEN_READONLY);
    if (!opened) return opened.error();
    Connection c;
    c.db = *opened;
    auto v = sqlite_schema::database_version(c);
    if (!v) return v.error();
    return status_at(*v);
}

Result<SchemaStatus> migrate_schema(const std::string& path) {
    Connection c;
    if (auto r = c.open_store(path); !r) return r.error();
    auto v = sqlite_schema::database_version(c);
    if (!v) return v.error();
    return status_at(*v);
}

}  // namespace outpost::server
