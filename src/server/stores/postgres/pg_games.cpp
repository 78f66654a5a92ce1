// Outpost — the game store in PostgreSQL (SPEC D1, D3; issue 26).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The same rows as SQLite's (sqlite_games.cpp): a game row and one row per move. A
// batch of the StorageWriter is one transaction, durable when COMMIT returns (the
// server's synchronous_commit, on by default): a kill -9 of the server loses nothing
// it acknowledged.
//
// A connection that writes (the StorageWriter's thread, in batches, and the rare
// analysis and arbiter writes) and a pool of connections that read (issue 25:
// connection_pool.h, two a core, 2 to 8), so that a game read from the database waits
// neither for a batch's commit nor for another reader's heavy read.
#include "server/stores/connection_pool.h"
#include "server/stores/game_store.h"
#include "server/stores/postgres/pg_ratings.h"
#include "server/stores/postgres/pg_stores.h"

#include <array>
#include <map>
#include <set>

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

// The game row's columns, in the order of Row below ($1 … $37 of the INSERT).
constexpr std::array<const char*, 37> Columns = {
    "id", "created_ms", "updated_ms", "white_token", "black_token", "white_kind", "black_kind", "white_name",
    "black_name", "robot_level", "robot_elo", "time_control", "variant", "chess960", "initial_fen", "casual",
    "status", "result", "draw_offer", "takeback_request", "offer_plies", "white_ms", "black_ms", "running",
    "turn_started_ms", "rematch_of", "rematch_game", "rematch_white_token", "rematch_black_token", "client",
    "white_account", "black_account", "adjournable", "adjournment", "deadline_ms", "arbiter_resume_ms", "first_move"};

std::string column_list() {
    std::string s;
    for (const char* c : Columns) s += (s.empty() ? "" : ", ") + std::string(c);
    return s;
}

// The columns (1-based, as in Columns) an UPDATE writes: every one that can change,
// or after a move that did not end the game only what a move changes.
constexpr int UpdateColumns[] = {3, 8, 9, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 34, 35};
constexpr int MoveColumns[] = {3, 19, 20, 21, 22, 23, 24, 25, 34, 35};

template <size_t N>
std::string update_sql(const int (&columns)[N]) {
    std::string s = "UPDATE games SET ";
    for (size_t i = 0; i < N; ++i)
        s += std::string(i ? ", " : "") + Columns[size_t(columns[i] - 1)] + "=$" + std::to_string(i + 2);
    return s + " WHERE id=$1";
}

// The row's values in the order of Columns.
std::vector<std::optional<std::string>> row_values(const StoredGame& g) {
    pg::Params p;
    p(g.id)(g.created_ms)(g.updated_ms)(g.white_token)(g.black_token)(g.white_kind)(g.black_kind)(g.white_name);
    p(g.black_name)(g.robot_level)(g.robot_elo)(g.time_control)(g.variant)(g.chess960)(g.initial_fen)(g.casual);
    p(g.status)(g.result)(g.draw_offer)(g.takeback_request)(g.offer_plies)(g.white_ms)(g.black_ms)(g.running);
    p(g.turn_started_ms)(g.rematch_of)(g.rematch_game)(g.rematch_white_token)(g.rematch_black_token)(g.client);
    p.id_or_null(g.white_account).id_or_null(g.black_account);
    p(g.adjournable)(g.adjournment)(g.deadline_ms)(g.arbiter_resume_ms)(g.first_move);
    return p.values();
}

// An array parameter in PostgreSQL's text form: every element quoted, `"` and `\`
// escaped (a uci, an id or an offer's text never breaks out of its element).
std::string array_text(const std::vector<std::string>& values) {
    std::string out = "{";
    for (const std::string& v : values) {
        if (out.size() > 1) out += ',';
        out += '"';
        for (char c : v) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

StoredGame read_game_row(const pg::Rows& r, int i) {
    StoredGame g;
    int c = 0;
    g.id = r.text(i, c++);
    g.created_ms = r.integer(i, c++);
    g.updated_ms = r.integer(i, c++);
    g.white_token = r.text(i, c++);
    g.black_token = r.text(i, c++);
    g.white_kind = r.text(i, c++);
    g.black_kind = r.text(i, c++);
    g.white_name = r.text(i, c++);
    g.black_name = r.text(i, c++);
    g.robot_level = int(r.integer(i, c++));
    g.robot_elo = int(r.integer(i, c++));
    g.time_control = r.text(i, c++);
    g.variant = r.text(i, c++);
    g.chess960 = int(r.integer(i, c++));
    g.initial_fen = r.text(i, c++);
    g.casual = r.integer(i, c++) != 0;
    g.status = r.text(i, c++);
    g.result = r.text(i, c++);
    g.draw_offer = r.text(i, c++);
    g.takeback_request = r.text(i, c++);
    g.offer_plies = r.text(i, c++);
    g.white_ms = r.integer(i, c++);
    g.black_ms = r.integer(i, c++);
    g.running = r.text(i, c++);
    g.turn_started_ms = r.integer(i, c++);
    g.rematch_of = r.text(i, c++);
    g.rematch_game = r.text(i, c++);
    g.rematch_white_token = r.text(i, c++);
    g.rematch_black_token = r.text(i, c++);
    g.client = r.text(i, c++);
    g.white_account = r.integer(i, c++);  // NULL reads as 0
    g.black_account = r.integer(i, c++);
    g.adjournable = r.integer(i, c++) != 0;
    g.adjournment = r.text(i, c++);
    g.deadline_ms = r.integer(i, c++);
    g.arbiter_resume_ms = r.integer(i, c++);
    g.first_move = r.text(i, c++);
    return g;
}

class PgStorage final : public Storage {
public:
    Result<bool> open(const std::string& url) {
        if (auto r = writer_.open_store(url); !r) return r;
        for (int i = 0; i < ConnectionPool<pg::Connection>::for_machine(); ++i) {
            auto c = std::make_unique<pg::Connection>();
            if (auto r = c->open(url); !r) return r;
            readers_.add(std::move(c));
        }
        return true;
    }

    Result<bool> write(const std::vector<GameWrite>& batch) override {
        std::lock_guard lock(writer_.mutex);
        return writer_.transaction([&]() -> Result<bool> {
            // A run of moves that do not end their game (most of a busy server's batch)
            // goes in two statements whatever its length (moves_together); anything
            // else, one write at a time, in order.
            std::vector<const GameWrite*> run;
            const auto flush = [&]() -> Result<bool> {
                if (run.empty()) return true;
                auto r = run.size() == 1 ? apply(*run.front()) : moves_together(run);
                run.clear();
                return r;
            };
            for (const GameWrite& w : batch) {
                if (w.kind == GameWrite::APPEND_MOVE && w.game.status == "ongoing" && !w.game.rating) {
                    run.push_back(&w);
                    continue;
                }
                if (auto r = flush(); !r) return r;
                if (auto r = apply(w); !r) return r;
            }
            return flush();
        });
    }

    Result<std::optional<StoredGame>> load_game(const std::string& id) override {
        static const std::string Sql = "SELECT " + column_list() + " FROM games WHERE id=$1";
        auto reader = readers_.take();
        auto games = read_games(*reader, Sql.c_str(), pg::Params()(id));
        if (!games) return games.error();
        if (games->empty()) return std::optional<StoredGame>{};
        static const char* const FenceSql = "SELECT fence FROM games WHERE id=$1";
        auto fence = reader->run(FenceSql, pg::Params()(id));
        if (!fence) return fence.error();
        if (!fence->empty()) games->front().fence = fence->integer(0, 0);
        if (games->front().status != "ongoing") {  // P23: what the game did to the ratings
            auto rating = pg_ratings::of_game(*reader, id);
            if (!rating) return rating.error();
            games->front().rating = std::move(*rating);
        }
        return std::optional<StoredGame>{std::move(games->front())};
    }

    Result<std::vector<StoredGame>> load_live_games() override {
        static const std::string Sql = "SELECT " + column_list() + " FROM games WHERE status='ongoing'";
        auto reader = readers_.take();
        return read_games(*reader, Sql.c_str(), {});
    }

    // `outpost puzzles make --database` (issue 29): ids by bytes after the time, as SQLite orders them.
    Result<std::vector<std::string>> finished_standard_game_ids() override {
        static const char* const Sql =
            "SELECT id FROM games WHERE status<>'ongoing' AND result<>'*' AND variant='standard' "
            "ORDER BY updated_ms, id COLLATE \"C\"";
        auto reader = readers_.take();
        auto rows = reader->run(Sql);
        if (!rows) return make_error("read finished games: " + rows.error().message);
        std::vector<std::string> out;
        for (int i = 0; i < rows->size(); ++i) out.push_back(rows->text(i, 0));
        return out;
    }

    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& tokens, int limit) override {
        static const std::string Sql = "SELECT " + column_list() +
                                       ", (SELECT count(*) FROM moves WHERE game_id=games.id) FROM games "
                                       "WHERE white_token=$1 OR black_token=$1 ORDER BY updated_ms DESC LIMIT 20";
        std::vector<StoredSummary> out;
        auto reader = readers_.take();
        for (const std::string& t : tokens) {
            if (int(out.size()) >= limit) break;
            if (t.empty()) continue;  // a robot's seat has no token; "" finds nothing
            auto rows = reader->run(Sql.c_str(), pg::Params()(t));
            if (!rows) return rows.error();
            for (int i = 0; i < rows->size(); ++i) {
                StoredSummary g{read_game_row(*rows, i), int(rows->integer(i, int(Columns.size())))};
                bool dup = false;
                for (const StoredSummary& o : out) dup = dup || o.game.id == g.game.id;
                if (!dup) out.push_back(std::move(g));
            }
        }
        return out;
    }

    Result<std::vector<StoredSummary>> games_of_account(std::int64_t account_id, int limit) override {
        static const std::string Sql = "SELECT " + column_list() +
                                       ", (SELECT count(*) FROM moves WHERE game_id=games.id) FROM games "
                                       "WHERE white_account=$1 OR black_account=$1 ORDER BY updated_ms DESC LIMIT $2";
        auto reader = readers_.take();
        auto rows = reader->run(Sql.c_str(), pg::Params()(account_id)(limit));
        if (!rows) return rows.error();
        std::vector<StoredSummary> out;
        for (int i = 0; i < rows->size(); ++i)
            out.push_back(StoredSummary{read_game_row(*rows, i), int(rows->integer(i, int(Columns.size())))});
        return out;
    }

    // Analyses (issue 10): through the writer connection (its mutex orders it with the
    // hub's batches).
    Result<bool> store_analysis(const StoredAnalysis& a) override {
        static const char* const Sql =
            "INSERT INTO analyses (game_id, settings, json, created_ms) VALUES ($1,$2,$3,$4) ON CONFLICT (game_id) "
            "DO UPDATE SET settings=EXCLUDED.settings, json=EXCLUDED.json, created_ms=EXCLUDED.created_ms";
        std::lock_guard lock(writer_.mutex);
        auto r = writer_.run(Sql, pg::Params()(a.game_id)(a.settings)(a.json)(a.created_ms));
        if (!r) return make_error("store the analysis of game " + a.game_id + ": " + r.error().message);
        return true;
    }

    Result<std::optional<StoredAnalysis>> load_analysis(const std::string& game_id) override {
        static const char* const Sql = "SELECT settings, json, created_ms FROM analyses WHERE game_id=$1";
        auto reader = readers_.take();
        auto rows = reader->run(Sql, pg::Params()(game_id));
        if (!rows) return rows.error();
        if (rows->empty()) return std::optional<StoredAnalysis>{};
        return std::optional<StoredAnalysis>{StoredAnalysis{game_id, rows->text(0, 0), rows->text(0, 1), rows->integer(0, 2)}};
    }

    // R18: the arbiter's resumption time (`outpost game resume`). Only this writes the
    // column; the server's row writes leave it alone.
    Result<bool> set_arbiter_resume(const std::string& id, std::int64_t at_ms) override {
        static const char* const Sql = "UPDATE games SET arbiter_resume_ms=$2 WHERE id=$1 AND adjournment<>''";
        std::lock_guard lock(writer_.mutex);
        auto r = writer_.run(Sql, pg::Params()(id)(at_ms));
        if (!r) return r.error();
        if (r->changed() == 0) return make_error("no adjourned game with id '" + id + "'");
        return true;
    }

    Result<std::int64_t> arbiter_resume_at(const std::string& id) override {
        static const char* const Sql = "SELECT arbiter_resume_ms FROM games WHERE id=$1";
        auto reader = readers_.take();
        auto rows = reader->run(Sql, pg::Params()(id));
        if (!rows) return rows.error();
        return rows->empty() ? std::int64_t(0) : rows->integer(0, 0);
    }

    Result<std::vector<StoredRating>> ratings_of(std::int64_t account) override {
        auto reader = readers_.take();
        return pg_ratings::of_account(*reader, account);
    }

    Result<std::vector<RatingPoint>> rating_history(std::int64_t account, int limit) override {
        auto reader = readers_.take();
        return pg_ratings::history(*reader, account, limit);
    }

    Result<std::vector<std::int64_t>> rated_games_between(std::int64_t a, std::int64_t b, std::int64_t since_ms) override {
        auto reader = readers_.take();
        return pg_ratings::between(*reader, a, b, since_ms);
    }

private:
    enum class Row : std::uint8_t { INSERT, UPDATE, MOVE };
    Result<bool> write_row(const StoredGame& g, Row kind) {
        static const std::string Insert = [] {
            std::string s = "INSERT INTO games (" + column_list() + ") VALUES (";
            for (size_t i = 1; i <= Columns.size(); ++i) s += (i > 1 ? ",$" : "$") + std::to_string(i);
            return s + ")";
        }();
        static const std::string Update = update_sql(UpdateColumns);
        static const std::string AfterMove = update_sql(MoveColumns);
        const auto all = row_values(g);
        pg::Params p;
        const char* sql = Insert.c_str();
        if (kind == Row::INSERT) {
            for (const auto& v : all) p.value(v);
        } else {
            p.value(all[0]);
            if (kind == Row::UPDATE)
                for (int c : UpdateColumns) p.value(all[size_t(c - 1)]);
            else
                for (int c : MoveColumns) p.value(all[size_t(c - 1)]);
            sql = kind == Row::UPDATE ? Update.c_str() : AfterMove.c_str();
        }
        auto r = writer_.run(sql, p);
        if (!r) return make_error((kind == Row::INSERT ? "insert game " : "update game ") + g.id + ": " + r.error().message);
        return true;
    }

    Result<bool> insert_move(const std::string& id, const StoredMove& m) {
        static const char* const Sql =
            "INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms, clock_ms) VALUES ($1,$2,$3,$4,$5,$6,$7) "
            "ON CONFLICT (game_id, ply) DO UPDATE SET uci=EXCLUDED.uci, white_ms=EXCLUDED.white_ms, "
            "black_ms=EXCLUDED.black_ms, at_ms=EXCLUDED.at_ms, clock_ms=EXCLUDED.clock_ms";
        auto r = writer_.run(Sql, pg::Params()(id)(m.ply)(m.uci)(m.white_ms)(m.black_ms)(m.at_ms)(m.clock_after));
        if (!r) return make_error("insert move " + std::to_string(m.ply) + " of game " + id + ": " + r.error().message);
        return true;
    }

    // Moves of ongoing games, many at once: one INSERT of every move and one UPDATE of
    // every game's row (its last write in the run), from arrays, so that a batch of a
    // hundred moves costs PostgreSQL two statements, not three hundred. The fencing
    // token is checked in the UPDATE: a game it does not write was taken by a higher
    // token, and the whole batch is refused (its transaction rolls back).
    Result<bool> moves_together(const std::vector<const GameWrite*>& run) {
        static const char* const Moves =
            "INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms, clock_ms) "
            "SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], "
            "$7::bigint[]) ON CONFLICT (game_id, ply) DO UPDATE SET uci=EXCLUDED.uci, white_ms=EXCLUDED.white_ms, "
            "black_ms=EXCLUDED.black_ms, at_ms=EXCLUDED.at_ms, clock_ms=EXCLUDED.clock_ms";
        static const std::string Rows = [] {
            // MoveColumns' values as arrays $2 …, then the fencing tokens.
            std::string set, names, arrays;
            size_t n = 2;
            for (int c : MoveColumns) {
                const std::string col = Columns[size_t(c - 1)];
                const bool number = col.ends_with("_ms");
                set += col + "=v." + col + ", ";
                names += ", " + col;
                arrays += ", $" + std::to_string(n++) + (number ? "::bigint[]" : "::text[]");
            }
            return "UPDATE games AS g SET " + set +
                   "fence=CASE WHEN v.fence>0 THEN v.fence ELSE g.fence END "
                   "FROM unnest($1::text[]" + arrays + ", $" + std::to_string(n) + "::bigint[]) AS v(id" + names +
                   ", fence) WHERE g.id=v.id AND (v.fence<=0 OR g.fence<=v.fence) RETURNING g.id";
        }();
        // The last write of each move (game, ply) and of each game's row.
        std::map<std::pair<std::string, int>, const GameWrite*> moves;
        std::map<std::string, const GameWrite*> rows;
        for (const GameWrite* w : run) {
            moves[{w->game.id, w->move.ply}] = w;
            rows[w->game.id] = w;
        }
        std::array<std::vector<std::string>, 7> m;
        for (const auto& [key, w] : moves) {
            const StoredMove& mv = w->move;
            m[0].push_back(w->game.id);
            m[1].push_back(std::to_string(mv.ply));
            m[2].push_back(mv.uci);
            m[3].push_back(std::to_string(mv.white_ms));
            m[4].push_back(std::to_string(mv.black_ms));
            m[5].push_back(std::to_string(mv.at_ms));
            m[6].push_back(std::to_string(mv.clock_after));
        }
        pg::Params mp;
        for (const auto& column : m) mp.value(array_text(column));
        if (auto r = writer_.run(Moves, mp); !r) return make_error("insert moves: " + r.error().message);
        std::vector<std::vector<std::string>> g(std::size(MoveColumns) + 2);
        for (const auto& [id, w] : rows) {
            const auto all = row_values(w->game);
            g[0].push_back(id);
            for (size_t i = 0; i < std::size(MoveColumns); ++i) g[i + 1].push_back(all[size_t(MoveColumns[i] - 1)].value_or(""));
            g.back().push_back(std::to_string(w->game.fence));
        }
        pg::Params gp;
        for (const auto& column : g) gp.value(array_text(column));
        auto written = writer_.run(Rows.c_str(), gp);
        if (!written) return make_error("update games: " + written.error().message);
        if (written->size() == int(rows.size())) return true;
        std::set<std::string> done;
        for (int i = 0; i < written->size(); ++i) done.insert(written->text(i, 0));
        for (const auto& [id, w] : rows)
            if (!done.count(id)) return make_error(fenced_message(w->game));  // or the row is gone
        return make_error("update games: fewer rows than games");
    }

    // Issue 26: a write under a lease (fence > 0) is refused when a higher token has
    // written the game; otherwise the game's token becomes this one.
    Result<bool> check_fence(const StoredGame& g) {
        if (g.fence <= 0) return true;
        static const char* const Sql = "UPDATE games SET fence=$2 WHERE id=$1 AND fence<=$2";
        auto r = writer_.run(Sql, pg::Params()(g.id)(g.fence));
        if (!r) return r.error();
        if (r->changed() == 0) return make_error(fenced_message(g));
        return true;
    }

    Result<bool> apply(const GameWrite& w) {
        if (w.kind != GameWrite::INSERT_GAME)
            if (auto r = check_fence(w.game); !r) return r;
        if (auto r = apply_row(w); !r) return r;
        if (w.kind == GameWrite::INSERT_GAME)
            if (auto r = check_fence(w.game); !r) return r;
        // P23: a finished rated game's ratings, in the same transaction as its row.
        if (w.game.rating && w.game.status != "ongoing")
            return pg_ratings::store(writer_, w.game.id, w.game.updated_ms, *w.game.rating);
        return true;
    }

    Result<bool> apply_row(const GameWrite& w) {
        switch (w.kind) {
        case GameWrite::INSERT_GAME:
            if (auto r = write_row(w.game, Row::INSERT); !r) return r;
            for (const StoredMove& m : w.game.moves)
                if (auto r = insert_move(w.game.id, m); !r) return r;
            return true;
        case GameWrite::APPEND_MOVE:
            if (auto r = insert_move(w.game.id, w.move); !r) return r;
            return write_row(w.game, w.game.status == "ongoing" ? Row::MOVE : Row::UPDATE);
        case GameWrite::TRUNCATE_MOVES: {
            static const char* const Sql = "DELETE FROM moves WHERE game_id=$1 AND ply>$2";
            if (auto r = writer_.run(Sql, pg::Params()(w.game.id)(w.ply)); !r) return r.error();
            return write_row(w.game, Row::UPDATE);
        }
        case GameWrite::UPDATE_GAME: return write_row(w.game, Row::UPDATE);
        }
        return make_error("unknown write");
    }

    // On a connection lent by readers_.
    Result<std::vector<StoredGame>> read_games(pg::Connection& reader, const char* sql, const pg::Params& params) {
        static const char* const MovesSql =
            "SELECT ply, uci, white_ms, black_ms, at_ms, clock_ms FROM moves WHERE game_id=$1 ORDER BY ply";
        auto rows = reader.run(sql, params);
        if (!rows) return rows.error();
        std::vector<StoredGame> out;
        for (int i = 0; i < rows->size(); ++i) out.push_back(read_game_row(*rows, i));
        for (StoredGame& g : out) {
            auto m = reader.run(MovesSql, pg::Params()(g.id));
            if (!m) return make_error("read the moves of game " + g.id + ": " + m.error().message);
            for (int i = 0; i < m->size(); ++i)
                g.moves.push_back(StoredMove{int(m->integer(i, 0)), m->text(i, 1), m->integer(i, 2), m->integer(i, 3),
                                             m->integer(i, 4), m->integer(i, 5)});
        }
        return out;
    }

    pg::Connection writer_;
    ConnectionPool<pg::Connection> readers_;
};

}  // namespace
}  // namespace pg

namespace postgres {

bool is_url(std::string_view location) {
    return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

Result<std::unique_ptr<Storage>> open_games(const std::string& url) {
    auto s = std::make_unique<pg::PgStorage>();
    if (auto r = s->open(url); !r) return r.error();
    return std::unique_ptr<Storage>(std::move(s));
}

}  // namespace postgres
}  // namespace outpost::server
