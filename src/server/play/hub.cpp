// Outpost — the game hub's registry of live games: which rooms are in memory (read back from
// storage on demand, finished ones evicted least recently used first), the per-client
// count of open games, the restart, and the reads of a game (state, PGN, moves, the
// lookup of a player's games, the lobby's report). The rest of the hub is in hub_*.cpp:
// creation, connections, messages, changes (storage then messages), clocks, robot,
// rating, adjournment
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"
#include "server/play/state_json.h"

#include <ctime>

#include "chess/fen.h"
#include "chess/game_pgn.h"
#include "chess/pgn.h"
#include "server/accounts/ratings.h"

namespace outpost::server {

Hub::Hub(HubEnv env, Storage* storage)
    : env_(std::move(env)), storage_(storage), writer_(storage, !env_.inline_writes, 512, env_.commit_window) {}

Hub::~Hub() { writer_.flush(); }

void Hub::flush() { writer_.flush(); }

size_t Hub::live_games() const {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (const auto& [id, r] : rooms_) n += !r->game.is_over();
    return n;
}

size_t Hub::rooms_in_memory() const {
    std::lock_guard lock(mutex_);
    return rooms_.size();
}

size_t Hub::finished_rooms_in_memory() const {
    std::lock_guard lock(mutex_);
    return finished_lru_.size();
}

size_t Hub::finished_bytes_in_memory() const {
    std::lock_guard lock(mutex_);
    return finished_bytes_;
}

// --- Rooms in memory -----------------------------------------------------------------

Answer<Room*> Hub::find(const std::string& id) {
    bool failed;
    {
        std::lock_guard lock(failed_mutex_);
        failed = failed_.erase(id) > 0;
    }
    std::map<const Subscriber*, std::pair<std::weak_ptr<Subscriber>, Seat>> keep;
    if (auto it = rooms_.find(id); it != rooms_.end()) {
        if (!failed) {
            touch(*it->second);
            return it->second.get();
        }
        // Its last write did not reach storage: what storage has is the truth.
        keep = std::move(it->second->subscribers);
        uncount_open(*it->second);
        forget_finished(id);
        rooms_.erase(it);
    }
    if (!storage_ || id.size() > 64) return not_found_game(id);
    auto stored = storage_->load_game(id);
    if (!stored) return ProtocolError{"internal", "game " + id + " could not be read: " + stored.error().message, 500};
    if (!stored->has_value()) return not_found_game(id);
    auto room = adopt(std::move(**stored));
    if (!room) return room.error();
    Room* p = room->get();
    if (p->game.status() == Status::ARBITER_DECISION && env_.arbiter_reason) p->arbiter_reason = env_.arbiter_reason(id);
    p->abandonment_ms = env_.abandonment_ms;
    count_open(*p);
    p->subscribers = std::move(keep);
    rooms_[id] = std::move(*room);
    touch(*p);
    evict_finished();
    if (env_.take_game && !p->game.is_over()) {  // issue 26: taken over, it runs here from now on
        schedule(*p);
        maybe_ask_robot(*p);
    }
    return p;
}

void Hub::touch(Room& r) {
    if (!r.game.is_over()) return;
    const size_t bytes = r.approx_bytes();
    if (auto l = lru_pos_.find(r.id()); l != lru_pos_.end()) {
        finished_lru_.splice(finished_lru_.end(), finished_lru_, l->second);
        finished_bytes_ = finished_bytes_ - l->second->second + bytes;
        l->second->second = bytes;
        return;
    }
    finished_lru_.emplace_back(r.id(), bytes);
    finished_bytes_ += bytes;
    lru_pos_[r.id()] = std::prev(finished_lru_.end());
}

void Hub::forget_finished(const std::string& id) {
    auto l = lru_pos_.find(id);
    if (l == lru_pos_.end()) return;
    finished_bytes_ -= l->second->second;
    finished_lru_.erase(l->second);
    lru_pos_.erase(l);
}

// Finished games beyond the bounds (their number, their bytes) leave memory, least
// recently used first (they are read back from storage if someone opens them again);
// one that someone still follows stays.
void Hub::evict_finished() {
    size_t looked = 0;
    const auto over = [this] {
        return finished_lru_.size() > env_.max_finished_in_memory || finished_bytes_ > env_.max_finished_bytes;
    };
    while (over() && looked++ < finished_lru_.size()) {
        const std::string id = finished_lru_.front().first;
        auto it = rooms_.find(id);
        bool followed = false;
        if (it != rooms_.end())
            for (const auto& [p, s] : it->second->subscribers) followed = followed || !s.first.expired();
        if (followed) {
            finished_lru_.splice(finished_lru_.end(), finished_lru_, finished_lru_.begin());
            continue;
        }
        forget_finished(id);
        if (it != rooms_.end()) rooms_.erase(it);
        if (env_.game_forgotten) env_.game_forgotten(id);  // issue 26: its lease goes
    }
}

// An unfinished game counts against its creator's cap (created now, or read back
// from storage with the address it was created from).
void Hub::count_open(Room& r) {
    if (r.client.empty() || r.counted_open || r.game.is_over()) return;
    r.counted_open = true;
    for (const std::string& key : open_keys(r.client)) ++open_games_[key];
}

void Hub::uncount_open(Room& r) {
    if (!r.counted_open) return;
    r.counted_open = false;
    for (const std::string& key : open_keys(r.client)) {
        if (auto it = open_games_.find(key); it != open_games_.end() && --it->second <= 0) open_games_.erase(it);
        // Issue 26: over, on whichever node ran it (not a game that merely left this node).
        if (env_.shared_limits && r.game.is_over()) env_.shared_limits->open_game_ended(key, r.id());
    }
}

int Hub::open_games_of(const std::string& client) const {
    auto it = open_games_.find(client);
    return it == open_games_.end() ? 0 : it->second;
}

// --- Restoring games after a restart ------------------------------------------------

Result<int> Hub::resume_from_storage() {
    if (!storage_) return 0;
    auto games = storage_->load_live_games();
    if (!games) return games.error();
    std::lock_guard lock(mutex_);
    int n = 0;
    for (StoredGame& g : *games) {
        auto room = room_from_stored(std::move(g), env_.monotonic_ms, env_.wall_ms());
        if (!room) continue;  // a row this version cannot read stays in storage, untouched
        Room& r = **room;
        fill_robot_elo(r);
        r.abandonment_ms = env_.abandonment_ms;
        report_live(r);
        count_open(r);  // the cap holds across restarts
        const std::string id = r.id();
        rooms_[id] = std::move(*room);
        const int ply = r.game.ply();
        if (check_timeouts(r)) commit(r, Change::STATE, ply);
        else {
            schedule(r);
            maybe_ask_robot(r);
        }
        ++n;
    }
    return n;
}

// --- Reading -----------------------------------------------------------------------

Answer<std::string> Hub::state_json(const std::string& id) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Room> scratch;
    auto r = find_to_read(id, scratch);
    if (!r) return r.error();
    // Read from storage here: the state names the node that runs the game.
    const std::string node = scratch && env_.node_of ? env_.node_of(id) : env_.node;
    return write_state(*r.value(), Seat::SPECTATOR, env_.monotonic_ms(), node);
}

Answer<std::string> Hub::pgn(const std::string& id) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Room> scratch;
    auto found = find_to_read(id, scratch);
    if (!found) return found.error();
    const Room& r = *found.value();
    GameRecord rec;
    // Issue 28 (8): a game without "casual" that cannot be rated (at one screen, against
    // an anonymous player) is not a casual one either.
    rec.event = rated_class(r.info) ? "Rated game" : r.info.casual ? "Casual game" : "Unrated game";
    rec.site = "Outpost";
    const std::time_t t = std::time_t(r.info.created_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    rec.date = date;
    rec.white = r.info.white_name;
    rec.black = r.info.black_name;
    if (r.clock) rec.time_control = r.clock->time_control();
    for (const PlyRecord& p : r.history) rec.clock_after_ply.push_back(p.clock_after);
    // Plies without a clock reading (untimed games, the untimed first moves) carry none.
    PgnGame pgn = game_to_pgn(r.game, rec);
    for (size_t i = 0; i < pgn.moves.size() && i < r.history.size(); ++i) {
        if (r.history[i].clock_after >= 0) continue;
        auto& c = pgn.moves[i].comments_after;
        if (!c.empty() && c.front().rfind("[%clk", 0) == 0) c.erase(c.begin());
    }
    if (r.info.variant == "chess960") pgn.set_tag("Variant", "Chess960");
    if (const auto& rating = r.info.rating) {
        // P23, as lichess writes them: the ratings before the game, and the changes.
        const auto signed_diff = [](int d) { return d > 0 ? "+" + std::to_string(d) : std::to_string(d); };
        pgn.set_tag("WhiteElo", std::to_string(rating->side[WHITE].before));
        pgn.set_tag("BlackElo", std::to_string(rating->side[BLACK].before));
        pgn.set_tag("WhiteRatingDiff", signed_diff(rating->side[WHITE].diff));
        pgn.set_tag("BlackRatingDiff", signed_diff(rating->side[BLACK].diff));
    }
    if (!r.arbiter_reason.empty()) pgn.comments.push_back("Arbiter's decision: " + r.arbiter_reason);
    if (r.adjourned) {
        // R18: while the game waits, that it is adjourned and by whom, never the move;
        // once resumed, the envelope (docs/protocol.md, "Adjournment").
        const AdjournState& a = *r.adjourned;
        pgn.set_tag("Adjourned", format_iso_time(a.sealed_at_ms));
        pgn.set_tag("SealedBy", a.envelope.sealed_by == WHITE ? "White" : "Black");
        if (!a.waiting()) {
            pgn.set_tag("SealedMove", a.envelope.sealed_move);
            pgn.set_tag("Resumed", format_iso_time(a.resumed_at_ms));
            const size_t at = size_t(a.ply) + (a.sealed_move_played ? 1 : 0);
            if (at >= 1 && at <= pgn.moves.size()) pgn.moves[at - 1].comments_after.push_back(envelope_comment(a));
            else pgn.comments.push_back(envelope_comment(a));
        }
    }
    return write_pgn(pgn);
}

Answer<GameMoves> Hub::game_moves(const std::string& id) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Room> scratch;
    auto found = find_to_read(id, scratch);
    if (!found) return found.error();
    const Room& r = *found.value();
    return GameMoves{r.game.start_position(), r.game.moves(), r.game.is_over()};
}

Answer<std::string> Hub::lookup(std::string_view body) {
    auto tokens = read_lookup(body);
    if (!tokens) return tokens.error();
    const auto& wanted = *tokens;
    std::vector<GameSummary> games;
    if (!storage_) return write_summaries(games);
    auto rows = storage_->games_for_tokens(wanted);
    if (!rows) return ProtocolError{"internal", rows.error().message, 500};
    std::lock_guard lock(mutex_);
    for (const StoredSummary& s : *rows) {
        const StoredGame& g = s.game;
        GameSummary sum{g.id, g.white_name, g.black_name, g.status, g.result, "spectator", "", g.time_control, g.variant,
                        g.updated_ms, g.created_ms, s.moves, "", 0, false};
        for (const auto& t : wanted) {
            const bool w = g.white_kind != "robot" && t == g.white_token, b = g.black_kind != "robot" && t == g.black_token;
            if (w && b) sum.you = "both", sum.token = t;
            else if (w) sum.you = "white", sum.token = t;
            else if (b) sum.you = "black", sum.token = t;
        }
        // A live room may be ahead of storage by the batch being written.
        if (auto r = rooms_.find(g.id); r != rooms_.end()) {
            sum.moves = r->second->game.ply();
            sum.status = status_id(r->second->game.status());
            sum.result = result_string(r->second->game.outcome());
            const Room& live = *r->second;
            if (!live.game.is_over()) {
                sum.turn = color_name(live.game.side_to_move(), Capital::NO);
                sum.adjourned = live.waiting_for_resumption();
                if (live.clock && live.clock->running_side()) {
                    const Color c = *live.clock->running_side();
                    sum.deadline = env_.wall_ms() + std::max<Millis>(0, live.clock->remaining(c) + live.clock->delay_left(c));
                }
            }
        }
        games.push_back(std::move(sum));
    }
    return write_summaries(games);
}

void Hub::report_live(const Room& r) const {
    // A game at one screen is in no list to watch (the lobby drops unlisted games) and
    // is never an event's or a simul's board: nothing reads its reports, so none is made
    // (each was a FEN under this lock and, on several nodes, a PUBLISH to the domains
    // node and a parse there).
    if (r.hotseat()) return;
    if (env_.on_live_game) env_.on_live_game(live_report(r));
}

Answer<LiveGame> Hub::game_report(const std::string& id) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Room> scratch;
    auto r = find_to_read(id, scratch);
    if (!r) return r.error();
    return live_report(**r);
}

LiveGame Hub::live_report(const Room& r) const {
    LiveGame g;
    g.id = r.id();
    g.white = r.info.white_name;
    g.black = r.info.black_name;
    g.time_control = r.info.time_control;
    g.variant = r.info.variant;
    g.ply = r.game.ply();
    g.over = r.game.is_over();
    g.outcome = r.game.outcome();
    g.listed = !r.hotseat();
    g.rated = rated_class(r.info).has_value();
    if (g.over) g.result = std::string(result_string(r.game.outcome()));
    g.fen = to_fen(r.game.position());
    if (!r.history.empty()) g.last_move = r.history.back().uci;
    return g;
}

}  // namespace outpost::server
