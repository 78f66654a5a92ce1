// Outpost — the game hub.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"
#include "server/play/state_json.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <future>
#include <random>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/game_pgn.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "chess/uci.h"
#include "server/accounts/ratings.h"

namespace outpost::server {
namespace {

ProtocolError game_over(const Game& g) { return {"game_over", "the game is over: " + describe(g.outcome()), 409}; }

// P22: the presence to everyone in the game but `except` (a connection that has just
// opened hears it in its first state), after the acknowledgements on their way (it
// never overtakes a move), by weak references (a connection may be gone by then).
void send_presence(StorageWriter& writer, const Room& r, Millis now, const Subscriber* except) {
    auto msg = std::make_shared<const std::string>(write_presence(r, now));
    std::vector<std::weak_ptr<Subscriber>> to;
    for (const auto& [p, sub] : r.subscribers)
        if (p != except && !sub.first.expired()) to.push_back(sub.first);
    if (to.empty()) return;
    writer.after_pending([to = std::move(to), msg](const Result<bool>&) {
        for (const auto& weak : to)
            if (auto s = weak.lock()) s->deliver(msg);
    });
}

}  // namespace

Hub::Hub(HubEnv env, Storage* storage)
    : env_(std::move(env)), storage_(storage), writer_(storage, !env_.inline_writes) {}

Hub::~Hub() { writer_.flush(); }

// C5: the lag credited is what the server measured on the connection; the client's own
// estimate may lower it, never raise it (a claimed 300 ms let a client play without its
// clock running). At most max_lag_credit_ms a move; the clock's LagQuota bounds it over
// many moves.
Millis Hub::credited_lag(Millis measured, std::optional<int> claimed) const {
    Millis lag = std::max<Millis>(0, measured);
    if (claimed) lag = std::min<Millis>(lag, std::max(0, *claimed));
    return std::min(lag, env_.max_lag_credit_ms);
}

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

std::string Hub::levels_json() const { return env_.levels_json ? env_.levels_json() : R"({"v":1,"levels":[]})"; }

std::string Hub::robot_name(int level, int elo) const {
    return level ? "Outpost level " + std::to_string(level) : "Outpost " + std::to_string(elo) + " Elo";
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
        if (it->second->counted_open) --open_games_[it->second->client];
        if (auto l = lru_pos_.find(id); l != lru_pos_.end()) {
            finished_lru_.erase(l->second);
            lru_pos_.erase(l);
        }
        rooms_.erase(it);
    }
    if (!storage_ || id.size() > 64) return not_found_game(id);
    auto stored = storage_->load_game(id);
    if (!stored) return ProtocolError{"internal", "game " + id + " could not be read: " + stored.error().message, 500};
    if (!stored->has_value()) return not_found_game(id);
    auto room = room_from_stored(std::move(**stored), env_.monotonic_ms, env_.wall_ms());
    if (!room) return ProtocolError{"internal", room.error().message, 500};
    fill_robot_elo(**room);
    Room* p = room->get();
    p->abandonment_ms = env_.abandonment_ms;
    count_open(*p);
    p->subscribers = std::move(keep);
    rooms_[id] = std::move(*room);
    touch(*p);
    evict_finished();
    return p;
}

void Hub::touch(Room& r) {
    if (!r.game.is_over()) return;
    if (auto l = lru_pos_.find(r.id()); l != lru_pos_.end()) {
        finished_lru_.splice(finished_lru_.end(), finished_lru_, l->second);
        return;
    }
    finished_lru_.push_back(r.id());
    lru_pos_[r.id()] = std::prev(finished_lru_.end());
}

// Finished games beyond the bound leave memory, least recently used first (they are
// read back from storage if someone opens them again); one that someone still
// follows stays.
void Hub::evict_finished() {
    size_t looked = 0;
    while (finished_lru_.size() > env_.max_finished_in_memory && looked++ < finished_lru_.size()) {
        const std::string id = finished_lru_.front();
        finished_lru_.pop_front();
        auto it = rooms_.find(id);
        bool followed = false;
        if (it != rooms_.end())
            for (const auto& [p, s] : it->second->subscribers) followed = followed || !s.first.expired();
        if (followed) {
            finished_lru_.push_back(id);
            lru_pos_[id] = std::prev(finished_lru_.end());
            continue;
        }
        lru_pos_.erase(id);
        if (it != rooms_.end()) rooms_.erase(it);
    }
}

// Rows of older versions stored no Elo for a level robot.
void Hub::fill_robot_elo(Room& r) const {
    if (r.info.robot_level && !r.info.robot_elo && env_.level_elo) r.info.robot_elo = env_.level_elo(r.info.robot_level);
}

// An unfinished game counts against its creator's cap (created now, or read back
// from storage with the address it was created from).
void Hub::count_open(Room& r) {
    if (r.client.empty() || r.counted_open || r.game.is_over()) return;
    r.counted_open = true;
    ++open_games_[r.client];
}

int Hub::open_games_of(const std::string& client) const {
    auto it = open_games_.find(client);
    return it == open_games_.end() ? 0 : it->second;
}

// --- Creating games ----------------------------------------------------------------

Answer<CreatedGame> Hub::create_game(std::string_view body, std::string_view client, const Account* account,
                                     const Account* opponent) {
    auto spec = read_new_game(body);
    if (!spec) return spec.error();
    // P22: the lobby seats the other player's account (an invite game's only).
    if (account && spec->opponent != "hotseat") spec->name = account->name;
    if (opponent && (spec->opponent != "invite" || (account && opponent->id == account->id))) opponent = nullptr;
    if (opponent) spec->opponent_name = opponent->name;
    return create_game(std::move(*spec), client, account, opponent ? opponent->id : 0);
}

Answer<CreatedGame> Hub::create_game(NewGameRequest request, std::string_view client, const Account* account,
                                     std::int64_t opponent_account) {
    NewGameRequest* spec = &request;
    // P21: a signed-in creator plays under the account's name (no one else's).
    if (account && spec->opponent != "hotseat") spec->name = account->name;
    std::promise<Result<bool>> durable;
    auto stored = durable.get_future();
    Answer<CreatedGame> created = ProtocolError{};
    {
        std::lock_guard lock(mutex_);
        // C3: correspondence games are counted apart, under a cap of their own.
        std::string key(client);
        int cap = env_.max_open_games_per_client;
        if (auto tc = parse_time_control(spec->time_control); tc && tc->correspondence() && !key.empty()) {
            key += "/correspondence";
            cap = env_.max_open_correspondence_per_client;
        }
        if (!key.empty() && open_games_of(key) >= cap)
            return ProtocolError{"rate_limited",
                                 "you have " + std::to_string(cap) +
                                     " unfinished games; finish, resign or abort one before you start another",
                                 429};
        const std::int64_t creator_account = account && spec->opponent != "hotseat" ? account->id : 0;
        auto before = made_before(*spec, creator_account, opponent_account);
        if (!before) return before.error();
        if (*before) return **before;
        StorageWriter::Done on_durable = [&durable](const Result<bool>& ok) { durable.set_value(ok); };
        created = create_room(*spec, "", key, on_durable, creator_account, opponent_account);
        if (!created) return created;
    }
    // D3: the answer goes out once the game is stored.
    if (auto ok = stored.get(); !ok) {
        std::lock_guard lock(mutex_);
        (void)find(created.value().id);  // drops the room that storage does not have
        return ProtocolError{"internal", "the game could not be stored: " + ok.error().message, 500};
    }
    return created;
}

Answer<CreatedGame> Hub::create_event_game(const std::string& time_control, bool casual, const Account& white,
                                           const Account& black, const std::string& game_id) {
    NewGameRequest spec;
    spec.game_id = game_id;
    spec.opponent = "invite";
    spec.creator_color = WHITE;
    spec.time_control = time_control;
    spec.casual = casual;
    spec.name = white.name;
    spec.opponent_name = black.name;
    spec.first_move = "forfeit";  // R14 on an event's board: the side that does not start loses
    std::promise<Result<bool>> durable;
    auto stored = durable.get_future();
    Answer<CreatedGame> created = ProtocolError{};
    {
        std::lock_guard lock(mutex_);
        auto before = made_before(spec, white.id, black.id);
        if (!before) return before.error();
        if (*before) return **before;
        StorageWriter::Done on_durable = [&durable](const Result<bool>& ok) { durable.set_value(ok); };
        created = create_room(spec, "", "", on_durable, white.id, black.id);
        if (!created) return created;
    }
    if (auto ok = stored.get(); !ok) {
        std::lock_guard lock(mutex_);
        (void)find(created.value().id);
        return ProtocolError{"internal", "the game could not be stored: " + ok.error().message, 500};
    }
    return created;
}

Answer<std::optional<CreatedGame>> Hub::made_before(const NewGameRequest& spec, std::int64_t creator_account,
                                                    std::int64_t opponent_account) {
    if (spec.game_id.empty()) return std::optional<CreatedGame>{};
    if (spec.game_id.size() > 64 || !std::all_of(spec.game_id.begin(), spec.game_id.end(), [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) != 0;
        }))
        return ProtocolError{"internal", "a chosen game id must be 1 to 64 letters and digits", 500};
    auto found = find(spec.game_id);
    if (!found) {
        if (found.error().code == "not_found") return std::optional<CreatedGame>{};
        return found.error();
    }
    const Room& r = **found;
    // The same game: the same seats (as create_room gives them) and the same R14 rule.
    const Color creator = spec.creator_color.value_or(WHITE);
    const bool robot = spec.opponent == "robot";
    const std::int64_t other = robot || opponent_account == creator_account ? 0 : opponent_account;
    const std::int64_t want_white = creator == WHITE ? creator_account : other;
    const std::int64_t want_black = creator == BLACK ? creator_account : other;
    if (!spec.creator_color || r.hotseat() || r.info.white_account != want_white || r.info.black_account != want_black ||
        r.info.first_move != spec.first_move)
        return ProtocolError{"internal", "the game id " + spec.game_id + " is another game's", 500};
    CreatedGame c;
    c.id = r.id();
    if (!r.info.white_token.empty()) c.white_token = r.info.white_token;
    if (!r.info.black_token.empty()) c.black_token = r.info.black_token;
    c.you = creator == WHITE ? Seat::WHITE_SEAT : Seat::BLACK_SEAT;
    return std::optional<CreatedGame>{c};
}

Answer<CreatedGame> Hub::create_room(const NewGameRequest& spec, const std::string& rematch_of, std::string client,
                                     StorageWriter::Done on_durable, std::int64_t creator_account,
                                     std::int64_t opponent_account) {
    auto tc = parse_time_control(spec.time_control);
    if (!tc) return bad_request(tc.error().message);
    if (tc->correspondence() && tc->days_per_move > 14) return bad_request("days per move must be 1 to 14 (C3)");
    if (spec.adjournment && tc->correspondence())
        return bad_request("a correspondence game is not adjourned: each move has its days already");

    // The start position (P13, R16).
    Position start = Position::startpos();
    std::vector<Move> pgn_moves;
    int number = -1;
    if (!spec.pgn.empty()) {
        auto game = read_pgn_game(spec.pgn);
        if (!game) return bad_request("PGN: " + game.error().message);
        start = game->start;
        pgn_moves = game->mainline();
    } else if (!spec.fen.empty()) {
        auto pos = position_from_fen(spec.fen, spec.chess960);
        if (!pos) return bad_request("FEN: " + pos.error().message);
        start = *pos;
    } else if (spec.chess960) {
        static thread_local std::mt19937 rng{std::random_device{}()};  // a start position, not a secret
        number = spec.chess960_number.value_or(int(rng() % 960));
        start = chess960_position(number).value();
    }
    GameOptions options;
    options.auto_claim_draws = spec.casual;

    static thread_local std::mt19937 coin{std::random_device{}()};  // colours by lot, not a secret
    const Color creator = spec.creator_color.value_or(coin() % 2 ? WHITE : BLACK);
    const bool robot = spec.opponent == "robot";

    StoredGame info;
    if (!spec.game_id.empty()) info.id = spec.game_id;  // not taken: made_before looked
    for (int tries = 0; spec.game_id.empty(); ++tries) {
        info.id = env_.random_token(8);
        if (rooms_.count(info.id)) continue;
        if (!storage_) break;
        auto taken = storage_->load_game(info.id);
        if (!taken) return ProtocolError{"internal", taken.error().message, 500};
        if (!taken->has_value()) break;
        if (tries > 100) return ProtocolError{"internal", "no free game id", 500};
    }
    info.created_ms = info.updated_ms = env_.wall_ms();
    const std::string creator_token = env_.random_token(22);
    CreatedGame created;
    created.id = info.id;
    if (spec.opponent == "hotseat") {
        info.white_token = info.black_token = creator_token;
        info.white_kind = info.black_kind = "human";
        info.white_name = spec.name;
        info.black_name = spec.opponent_name.empty() ? spec.name : spec.opponent_name;
        created.white_token = created.black_token = creator_token;
        created.you = Seat::BOTH;
    } else {
        // D4: a robot's seat has no token at all (nothing to guess, nothing to leak).
        const std::string other = robot ? "" : env_.random_token(22);
        info.white_token = creator == WHITE ? creator_token : other;
        info.black_token = creator == BLACK ? creator_token : other;
        const std::string opponent_name =
            robot ? robot_name(spec.level, spec.elo) : (spec.opponent_name.empty() ? "Anonymous" : spec.opponent_name);
        info.white_kind = creator == WHITE ? "human" : (robot ? "robot" : "human");
        info.black_kind = creator == BLACK ? "human" : (robot ? "robot" : "human");
        info.white_name = creator == WHITE ? spec.name : opponent_name;
        info.black_name = creator == BLACK ? spec.name : opponent_name;
        if (creator == WHITE || !robot) created.white_token = info.white_token;
        if (creator == BLACK || !robot) created.black_token = info.black_token;
        created.you = creator == WHITE ? Seat::WHITE_SEAT : Seat::BLACK_SEAT;
        // P21: the seats' accounts (none for a robot's seat).
        (creator == WHITE ? info.white_account : info.black_account) = creator_account;
        if (!robot && opponent_account != creator_account)
            (creator == WHITE ? info.black_account : info.white_account) = opponent_account;
    }
    info.robot_level = robot ? spec.level : 0;
    info.robot_elo = robot ? (spec.elo ? spec.elo : (env_.level_elo && spec.level ? env_.level_elo(spec.level) : 0)) : 0;
    info.time_control = tc->to_string();
    info.variant = start.is_chess960() ? "chess960" : "standard";
    info.chess960 = number;
    info.initial_fen = to_fen(start);
    info.casual = spec.casual;
    info.rematch_of = rematch_of;
    info.adjournable = spec.adjournment;
    info.first_move = spec.first_move;

    auto room = std::make_unique<Room>(std::move(info), Game(start, options));
    Room& r = *room;
    const Millis now = env_.monotonic_ms();
    for (Move m : pgn_moves) {
        if (auto p = r.play(r.game.side_to_move(), m, std::nullopt, 0, r.info.created_ms, now);
            !p)
            return bad_request("PGN: a move could not be replayed");
        if (r.game.is_over()) return bad_request("the game in the PGN is already over: " + describe(r.game.outcome()));
    }
    if (r.game.is_over()) return bad_request("the start position is already decided: " + describe(r.game.outcome()));
    for (PlyRecord& p : r.history) p.clock_after = -1;  // moves before the game: no clock readings
    r.preset_plies = r.game.ply();
    r.robot_instant = spec.robot_instant;
    if (!tc->unlimited()) r.clock.emplace(*tc, env_.monotonic_ms);
    if (r.clock && spec.creator_extra_ms > 0 && !r.hotseat()) r.clock->add_time(creator, spec.creator_extra_ms);
    // C3: a correspondence game's first moves have their days too.
    if (r.clock && (r.game.ply() >= 2 || tc->correspondence())) {
        r.clock->start(r.game.side_to_move());
        r.clock_started = true;
    }
    for (PlyRecord& p : r.history) {
        p.white_ms = r.clock ? r.clock->remaining(WHITE) : 0;
        p.black_ms = r.clock ? r.clock->remaining(BLACK) : 0;
    }
    r.turn_began = now;
    r.absent_since[WHITE] = r.absent_since[BLACK] = now;
    r.client = std::move(client);
    r.abandonment_ms = env_.abandonment_ms;
    count_open(r);

    GameWrite w;
    w.kind = GameWrite::INSERT_GAME;
    w.game = r.row(r.info.created_ms);
    for (int ply = 1; ply <= r.game.ply(); ++ply) w.game.moves.push_back(r.stored_move(ply));
    rooms_[r.id()] = std::move(room);
    const std::string id = r.id();
    writer_.submit(std::move(w), [this, id, on_durable](const Result<bool>& ok) {
        if (!ok) {
            std::lock_guard lock(failed_mutex_);
            failed_.insert(id);
        }
        if (on_durable) on_durable(ok);
    });
    schedule(r);
    maybe_ask_robot(r);
    ask_dead_position(r, r.game.ply() - 1);  // a start from a FEN or PGN may be dead already
    return created;
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
    auto r = find(id);
    if (!r) return r.error();
    return write_state(*r.value(), Seat::SPECTATOR, env_.monotonic_ms());
}

Answer<std::string> Hub::pgn(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    const Room& r = *found.value();
    GameRecord rec;
    rec.event = rated_class(r.info) ? "Rated game" : "Casual game";
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
    auto found = find(id);
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

// --- Connections -------------------------------------------------------------------

Answer<Seat> Hub::connect(const std::string& id, std::string_view token, const std::shared_ptr<Subscriber>& who,
                          const Account* account) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    Room& r = *found.value();
    const Seat seat = r.seat_of(token);
    if (!token.empty() && seat == Seat::SPECTATOR)
        return ProtocolError{"not_your_seat", "this seat token does not belong to game " + id, 403};
    // P21: a signed-in player opening a seat nobody's account holds takes it (the
    // others see the new name); otherwise the seat stays as it is.
    if (account) {
        if (auto taken = take_seat(r, seat, *account); taken && *taken) commit(r, Change::STATE, r.game.ply());
    }
    r.subscribers[who.get()] = {who, seat};
    if (seat != Seat::SPECTATOR) send_presence(writer_, r, env_.monotonic_ms(), who.get());
    // The first state goes after any acknowledgement still on its way to storage, so
    // that it never shows a move before the move is durable nor overtakes one.
    auto msg = std::make_shared<const std::string>(write_state(r, seat, env_.monotonic_ms()));
    std::weak_ptr<Subscriber> weak = who;
    writer_.after_pending([weak, msg](const Result<bool>&) {
        if (auto s = weak.lock()) s->deliver(msg);
    });
    return seat;
}

Answer<bool> Hub::take_seat(Room& r, Seat seat, const Account& account) {
    if (account.id <= 0 || account.disabled) return not_allowed("not signed in");
    if (seat == Seat::BOTH) return not_allowed("a game at one screen has no accounts");
    const auto c = seat_color(seat);
    if (!c) return ProtocolError{"not_your_seat", "this seat token does not belong to the game", 403};
    if (r.game.is_over()) return game_over(r.game);
    std::int64_t& mine = *c == WHITE ? r.info.white_account : r.info.black_account;
    const std::int64_t theirs = *c == WHITE ? r.info.black_account : r.info.white_account;
    if (mine == account.id) return false;  // already the account's
    if (mine != 0) return ProtocolError{"not_your_seat", "this seat belongs to another account", 403};
    if (theirs == account.id) return not_allowed("the other seat of this game is already yours");
    mine = account.id;
    (*c == WHITE ? r.info.white_name : r.info.black_name) = account.name;
    return true;
}

Answer<std::string> Hub::claim_seat(const std::string& id, std::string_view token, const Account& account) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    Room& r = *found.value();
    const Seat seat = token.empty() ? Seat::SPECTATOR : r.seat_of(token);
    if (seat == Seat::SPECTATOR)
        return ProtocolError{"not_your_seat", "this seat token does not belong to game " + id, 403};
    auto taken = take_seat(r, seat, account);
    if (!taken) return taken.error();
    if (*taken) commit(r, Change::STATE, r.game.ply());
    return std::string(R"({"v":1,"game":")") + id + R"(","you":")" + seat_name(seat) + "\"}";
}

void Hub::disconnect(const std::string& id, const Subscriber* who) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    auto s = r.subscribers.find(who);
    if (s == r.subscribers.end()) return;
    const Seat seat = s->second.second;
    r.subscribers.erase(s);
    r.away.erase(who);
    for (Color c : {WHITE, BLACK})
        if ((seat == Seat::BOTH || seat_color(seat) == c) && !r.connected(c)) r.absent_since[c] = env_.monotonic_ms();
    if (seat != Seat::SPECTATOR) broadcast_presence(r);
    touch(r);
    evict_finished();
}

// --- Messages ------------------------------------------------------------------------

void Hub::handle_message(const std::string& id, Seat seat, std::string_view text, Subscriber& from, Millis lag_ms) {
    auto reply_error = [&](const ProtocolError& e) { from.deliver(std::make_shared<const std::string>(error_json(e))); };
    auto parsed = read_client_message(text);
    if (!parsed) return reply_error(parsed.error());
    const ClientMessage& msg = *parsed;
    if (std::holds_alternative<in::Ping>(msg))
        return from.deliver(std::make_shared<const std::string>(write_pong(env_.monotonic_ms())));

    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return reply_error(not_found_game(id));
    auto found = find(id);  // a room whose write failed is read back here
    if (!found) return reply_error(found.error());
    Room& r = *found.value();
    if (std::holds_alternative<in::Sync>(msg)) {
        // A client that missed a message asks for the whole state again.
        auto state = std::make_shared<const std::string>(write_state(r, seat, env_.monotonic_ms()));
        auto sub = r.subscribers.find(&from);
        if (sub == r.subscribers.end()) return from.deliver(state);
        // After the acknowledgements on their way; by a weak reference, as the
        // connection may be gone by then.
        writer_.after_pending([weak = sub->second.first, state](const Result<bool>&) {
            if (auto s = weak.lock()) s->deliver(state);
        });
        return;
    }
    if (const auto* p = std::get_if<in::Presence>(&msg)) {
        // P22: a player's tab hidden or shown; a spectator's presence is nobody's concern.
        if (seat == Seat::SPECTATOR || r.subscribers.count(&from) == 0) return;
        const bool changed = p->away ? r.away.insert(&from).second : r.away.erase(&from) > 0;
        if (changed) broadcast_presence(r);
        return;
    }
    if (seat == Seat::SPECTATOR) return reply_error({"not_your_seat", "spectators cannot act in a game", 403});
    if (r.waiting_for_resumption() && !std::holds_alternative<in::Resign>(msg) && !std::holds_alternative<in::Draw>(msg) &&
        !std::holds_alternative<in::Seal>(msg) && !std::holds_alternative<in::Resume>(msg))
        return reply_error({"adjourned",
                            r.adjourned->resume_at_ms ? "the game is adjourned until " + format_iso_time(r.adjourned->resume_at_ms)
                                                      : "the game is adjourned until a resumption time is agreed",
                            409});
    Context c{r, seat, seat_color(seat).value_or(r.game.side_to_move()), lag_ms};
    const bool was_over = r.game.is_over();
    const int ply_before = r.game.ply();
    Handled done = std::visit([&](const auto& m) { return handle(c, m); }, msg);
    if (!done) {
        reply_error(done.error());
        if (!was_over && r.game.is_over()) commit(r, Change::STATE, ply_before);  // a flag fell as the move came in
        return;
    }
    commit(r, *done, ply_before);
}

Answer<Move> Hub::read_move(const Room& r, const in::Move& m) const {
    Result<Move> move = m.uci ? move_from_uci(r.game.position(), *m.uci) : move_from_san(r.game.position(), *m.san);
    if (!move) return ProtocolError{"illegal_move", move.error().message, 400};
    return *move;
}

Hub::Handled Hub::handle(Context& c, const in::Move& m) {
    Room& r = c.room;
    const Color turn = r.game.side_to_move();
    if (r.game.is_over()) return game_over(r.game);
    if (c.me != turn || r.robot(turn)) return ProtocolError{"not_your_turn", "it is not your turn", 409};
    if (m.ply && *m.ply != r.game.ply())
        return ProtocolError{"not_your_turn", "the move was made for another position (stale premove)", 409};
    auto move = read_move(r, m);
    if (!move) return move.error();
    const Millis lag = credited_lag(c.lag_ms, m.lag_ms);
    auto played = r.play(turn, *move, std::nullopt, lag, env_.wall_ms(), env_.monotonic_ms());
    if (!played) return played.error();
    return Change::MOVE;
}

Hub::Handled Hub::handle(Context& c, const in::Claim& m) {
    Room& r = c.room;
    Game& g = r.game;
    if (g.is_over()) return game_over(g);
    if (m.claim == ClaimKind::ABANDONMENT_WIN || m.claim == ClaimKind::ABANDONMENT_DRAW) {
        const Color absent = ~c.me;
        const Millis now = env_.monotonic_ms();
        const Millis waited = std::min(now - r.turn_began, now - r.absent_since[absent]);
        if (!r.invite()) return not_allowed("abandonment is claimed in a game between two people on two devices");
        if (r.correspondence()) return not_allowed("in a correspondence game the deadline decides, not a claim");
        if (g.ply() < 2) return not_allowed("a game without both first moves is aborted, not claimed");
        if (g.side_to_move() != absent) return not_allowed("your opponent has moved: it is your turn");
        if (r.connected(absent)) return not_allowed("your opponent is still connected");
        if (waited < env_.abandonment_ms)
            return not_allowed("your opponent may claim only after " + std::to_string(env_.abandonment_ms / 1000) +
                               " s without a connection and a move (" + std::to_string(std::max<Millis>(0, waited) / 1000) +
                               " s so far)");
        if (m.claim == ClaimKind::ABANDONMENT_WIN) (void)g.forfeit(absent);
        else {
            // A draw: recorded as agreed (the player present agrees for the one who left).
            (void)g.offer_draw(absent);
            (void)g.accept_draw(c.me);
        }
        if (r.clock) r.clock->stop();
        return Change::STATE;
    }
    const DrawClaim claim = m.claim == ClaimKind::THREEFOLD_REPETITION ? DrawClaim::THREEFOLD_REPETITION : DrawClaim::FIFTY_MOVES;
    const Color turn = g.side_to_move();
    if (turn != c.me || r.robot(turn)) return ProtocolError{"not_your_turn", "only the player to move can claim a draw", 409};
    if (!m.with.uci && !m.with.san) {
        auto res = g.claim_draw(claim);
        if (!res) return not_allowed(res.error().message);
        if (r.clock) r.clock->stop();
        return Change::STATE;
    }
    if (m.with.ply && *m.with.ply != g.ply())
        return ProtocolError{"not_your_turn", "the move was made for another position (stale premove)", 409};
    auto move = read_move(r, m.with);
    if (!move) return move.error();
    const Millis lag = credited_lag(c.lag_ms, m.with.lag_ms);
    auto played = r.play(turn, *move, claim, lag, env_.wall_ms(), env_.monotonic_ms());
    if (!played) return played.error();
    return Change::MOVE;
}

Hub::Handled Hub::handle(Context& c, const in::Resign&) {
    if (c.room.game.is_over()) return game_over(c.room.game);
    (void)c.room.game.resign(c.me);
    if (c.room.clock) c.room.clock->stop();
    return Change::STATE;
}

Hub::Handled Hub::handle(Context& c, const in::Abort&) {
    if (c.room.game.is_over()) return game_over(c.room.game);
    // R14 on an event's or a simul's board: the game is played or lost, never silently aborted.
    if (!c.room.info.first_move.empty())
        return not_allowed("a game of an event or a simul is not aborted: resign, or lose it by not moving (R14)");
    auto a = c.room.game.abort();
    if (!a) return not_allowed(a.error().message);
    if (c.room.clock) c.room.clock->stop();
    return Change::STATE;
}

Hub::Handled Hub::handle(Context& c, const in::Draw& m) {
    Room& r = c.room;
    Game& g = r.game;
    if (g.is_over()) return game_over(g);
    const Color them = ~c.me;
    Result<Outcome> res = make_error("");
    if (m.action == Action::OFFER) {
        // One standing offer per side, and after one a side waits this many plies
        // before the next (as lichess does): offers cannot flood the game or its row.
        if (g.draw_offer() == c.me) return not_allowed("your draw offer is already standing");
        const int since = g.ply() - r.last_offer_ply[c.me];
        if (g.draw_offer() != them && since < env_.draw_offer_interval_plies)
            return not_allowed("you offered a draw " + std::to_string(since) + " plies ago; offer again after " +
                               std::to_string(env_.draw_offer_interval_plies) + " plies");
        res = g.offer_draw(c.me);
        if (res) r.last_offer_ply[c.me] = g.ply();
        // The robot declines offers: it plays on (it is told nothing it could misjudge).
        if (res && r.robot(them) && g.draw_offer() == c.me) (void)g.decline_draw(them);
    } else if (m.action == Action::ACCEPT) {
        res = g.accept_draw(c.me);
    } else {
        res = g.decline_draw(c.me);
    }
    if (!res) return not_allowed(res.error().message);
    if (g.is_over() && r.clock) r.clock->stop();
    return Change::STATE;
}

Hub::Handled Hub::handle(Context& c, const in::Takeback& m) {
    Room& r = c.room;
    Game& g = r.game;
    if (g.is_over()) return game_over(g);
    const Color turn = g.side_to_move();
    const Color them = ~c.me;
    // P9: a takeback undoes the requester's own last move (and the reply to it, when
    // the opponent has answered). Someone who has made no move has nothing to undo;
    // moves of a PGN the game started from belong to nobody here.
    const int pgn_plies = r.preset_plies;
    auto plies_for = [&](Color requester) {
        if (c.seat == Seat::BOTH) return 1;
        return turn == requester ? 2 : 1;
    };
    auto take = [&](Color requester) -> Handled {
        const int plies = plies_for(requester);
        if (g.ply() - plies < pgn_plies || plies > g.ply()) return not_allowed("there is no move of yours to take back");
        if (auto res = r.take_back(plies); !res) return res.error();
        r.robot_request = 0;  // an answer still coming is for the position taken back
        if (env_.cancel_robot) env_.cancel_robot(r.id());
        return Change::STATE;
    };
    if (m.action == Action::REQUEST) {
        if (g.ply() - plies_for(c.me) < pgn_plies || plies_for(c.me) > g.ply())
            return not_allowed("there is no move of yours to take back");
        if (c.seat == Seat::BOTH) return take(c.me);
        if (r.robot(them)) {
            if (!r.info.casual) return not_allowed("the robot grants takebacks only in casual games");
            return take(c.me);
        }
        if (r.takeback_request == them) return take(them);
        if (r.takeback_request == c.me) return not_allowed("your takeback request is already standing");
        r.takeback_request = c.me;
        return Change::STATE;
    }
    if (r.takeback_request != them)
        return not_allowed(std::string("there is no takeback request to ") + (m.action == Action::ACCEPT ? "accept" : "decline"));
    if (m.action == Action::ACCEPT) return take(them);
    r.takeback_request.reset();
    return Change::STATE;
}

Hub::Handled Hub::handle(Context& c, const in::GiveTime& m) {
    Room& r = c.room;
    if (r.game.is_over()) return game_over(r.game);
    if (!r.clock) return not_allowed("this game has no clock");
    if (c.seat == Seat::BOTH) return not_allowed("give time to an opponent on another device");
    r.clock->add_time(~c.me, Millis(m.seconds) * 1000);
    return Change::STATE;
}

Hub::Handled Hub::handle(Context& c, const in::Rematch& m) {
    Room& r = c.room;
    const Game& g = r.game;
    if (!g.is_over()) return not_allowed("a rematch is offered after the game");
    if (!r.info.rematch_game.empty()) return Change::NONE;  // already arranged
    const Color them = ~c.me;
    const bool robot_game = r.robot_game();
    if (m.action == Action::OFFER && !robot_game && c.seat != Seat::BOTH && r.rematch_offer != them) {
        r.rematch_offer = c.me;
        return Change::STATE;
    }
    if (m.action == Action::ACCEPT && !robot_game && c.seat != Seat::BOTH && r.rematch_offer != them)
        return not_allowed("there is no rematch offer to accept");
    // Colours swap; the same time control, variant and level.
    NewGameRequest spec;
    const Color human = robot_game ? (r.robot(WHITE) ? BLACK : WHITE) : WHITE;
    spec.opponent = c.seat == Seat::BOTH ? "hotseat" : robot_game ? "robot" : "invite";
    spec.creator_color = robot_game ? ~human : BLACK;  // the creator is the old white (or the human)
    spec.level = r.info.robot_level;
    spec.elo = r.info.robot_level ? 0 : r.info.robot_elo;
    spec.time_control = r.info.time_control;
    spec.chess960 = r.info.variant == "chess960" && r.info.chess960 >= 0;
    if (spec.chess960) spec.chess960_number = r.info.chess960;
    if (r.info.chess960 < 0 && r.info.initial_fen != to_fen(Position::startpos())) spec.fen = r.info.initial_fen;
    spec.casual = r.info.casual;
    spec.adjournment = r.info.adjournable;
    spec.robot_instant = r.robot_instant;
    spec.name = human == WHITE ? r.info.white_name : r.info.black_name;
    spec.opponent_name = robot_game ? "" : r.info.black_name;
    if (c.seat == Seat::BOTH) {
        spec.name = r.info.black_name;
        spec.opponent_name = r.info.white_name;
    }
    // The accounts follow their players to the other colours (P21).
    const std::int64_t creator_account =
        c.seat == Seat::BOTH ? 0 : robot_game ? (human == WHITE ? r.info.white_account : r.info.black_account) : r.info.white_account;
    const std::int64_t opponent_account = c.seat == Seat::BOTH || robot_game ? 0 : r.info.black_account;
    auto created = create_room(spec, r.id(), r.client, nullptr, creator_account, opponent_account);
    if (!created) return created.error();
    const CreatedGame& made = created.value();
    r.info.rematch_game = made.id;
    // The seat in the new game of this game's white and black (stored: D3).
    if (c.seat == Seat::BOTH) {
        r.info.rematch_white_token = r.info.rematch_black_token = *made.white_token;
    } else if (robot_game) {
        (human == WHITE ? r.info.rematch_white_token : r.info.rematch_black_token) =
            human == WHITE ? *made.black_token : *made.white_token;
    } else {
        r.info.rematch_white_token = *made.black_token;
        r.info.rematch_black_token = *made.white_token;
    }
    r.rematch_offer.reset();
    return Change::STATE;
}

// --- Changes: storage, then messages --------------------------------------------------

GameWrite Hub::write_for(Room& r, int ply_before) const {
    GameWrite w;
    w.game = r.row(env_.wall_ms());
    const int ply = r.game.ply();
    if (ply < ply_before) {
        w.kind = GameWrite::TRUNCATE_MOVES;
        w.ply = ply;
    } else if (ply == ply_before + 1) {
        w.kind = GameWrite::APPEND_MOVE;
        w.move = r.stored_move(ply);
    } else {
        w.kind = GameWrite::UPDATE_GAME;
    }
    return w;
}

void Hub::commit(Room& r, Change change, int ply_before) {
    if (r.game.is_over()) {
        end_game_tasks(r);
        rate(r);
    }
    if (change != Change::NONE) {
        // The messages are made now (the state as it is at this change) and sent once
        // the change is durable (D3: nothing acknowledged is ever lost).
        const bool one_move = change == Change::MOVE && r.game.ply() == ply_before + 1;
        const Millis now = env_.monotonic_ms();
        std::shared_ptr<const std::string> per_seat[4];
        std::vector<std::pair<std::weak_ptr<Subscriber>, std::shared_ptr<const std::string>>> out;
        out.reserve(r.subscribers.size());
        for (auto it = r.subscribers.begin(); it != r.subscribers.end();) {
            if (it->second.first.expired()) {
                it = r.subscribers.erase(it);
                continue;
            }
            auto& msg = per_seat[size_t(it->second.second)];
            if (!msg)
                msg = std::make_shared<const std::string>(one_move ? write_move(r, it->second.second, now)
                                                                   : write_state(r, it->second.second, now));
            out.emplace_back(it->second.first, msg);
            ++it;
        }
        const std::string id = r.id();
        std::vector<std::int64_t> rated;  // P23: whose cached ratings this write carries
        if (r.info.rating) rated = {r.info.rating->side[WHITE].account, r.info.rating->side[BLACK].account};
        writer_.submit(write_for(r, ply_before), [this, id, rated, out = std::move(out)](const Result<bool>& ok) {
            if (!ok) {
                {
                    std::lock_guard lock(failed_mutex_);
                    failed_.insert(id);
                    stale_ratings_.insert(rated.begin(), rated.end());
                }
                auto err = std::make_shared<const std::string>(
                    error_json({"internal", "the last change could not be stored: " + ok.error().message, 500}));
                for (const auto& [weak, msg] : out)
                    if (auto s = weak.lock()) s->deliver(err);
                return;
            }
            for (const auto& [weak, msg] : out)
                if (auto s = weak.lock()) s->deliver(msg);
        });
    }
    if (change != Change::NONE) report_live(r);
    touch(r);
    evict_finished();
    if (rooms_.count(r.id()) == 0) return;  // (evicted: a finished game nobody follows)
    schedule(r);
    maybe_ask_robot(r);
    if (change == Change::MOVE) ask_dead_position(r, ply_before);
}

void Hub::broadcast_presence(Room& r) { send_presence(writer_, r, env_.monotonic_ms(), nullptr); }

void Hub::report_live(const Room& r) const {
    if (env_.on_live_game) env_.on_live_game(live_report(r));
}

Answer<LiveGame> Hub::game_report(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto r = find(id);
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
    return g;
}

// P21: an anonymous player names their seat (a signed-in one plays under the account's
// name; a game at one screen names both at its creation).
Hub::Handled Hub::handle(Context& c, const in::Name& m) {
    Room& r = c.room;
    if (r.game.is_over()) return game_over(r.game);
    const auto color = seat_color(c.seat);
    if (!color || r.hotseat()) return not_allowed("a game at one screen is named when it is made");
    if ((*color == WHITE ? r.info.white_account : r.info.black_account) != 0)
        return not_allowed("a signed-in player plays under the account's name");
    std::string& name = *color == WHITE ? r.info.white_name : r.info.black_name;
    if (name == m.name) return Change::NONE;
    name = m.name;
    return Change::STATE;
}

void Hub::rate(Room& r) {
    if (r.info.rating || !storage_) return;
    if (!changes_ratings(r.info, r.game.outcome(), r.game.ply() - r.preset_plies)) return;
    const std::string cls(club::rating_class_name(*rated_class(r.info)));
    const std::int64_t accounts[2] = {r.info.white_account, r.info.black_account};
    StoredRating now[2];
    for (int c = 0; c < 2; ++c) {
        auto got = current_rating(accounts[c], cls);
        if (!got) {
            // The game stands; only its ratings are lost (said, not guessed).
            std::fprintf(stderr, "outpost: game %s is not rated: %s\n", r.id().c_str(), got.error().message.c_str());
            return;
        }
        now[c] = *got;
    }
    r.info.rating = rate_game(cls, accounts[0], now[0], accounts[1], now[1], score_for(r.game.outcome(), WHITE), env_.wall_ms());
    for (int c = 0; c < 2; ++c) ratings_[{accounts[c], cls}] = r.info.rating->side[c].after;
}

Result<std::optional<StoredRating>> Hub::rating_of(std::int64_t account, const std::string& rating_class) {
    std::lock_guard lock(mutex_);
    if (!storage_ || !account) return std::optional<StoredRating>{};
    auto r = current_rating(account, rating_class);
    if (!r) return r.error();
    if (r->games == 0) return std::optional<StoredRating>{};  // the initial rating: no rated game yet
    return std::optional<StoredRating>{*r};
}

Result<StoredRating> Hub::current_rating(std::int64_t account, const std::string& rating_class) {
    bool stale;
    {
        std::lock_guard lock(failed_mutex_);
        stale = stale_ratings_.erase(account) > 0;
    }
    if (stale) std::erase_if(ratings_, [&](const auto& e) { return e.first.first == account; });
    if (auto it = ratings_.find({account, rating_class}); it != ratings_.end()) return it->second;
    auto stored = storage_->ratings_of(account);
    if (!stored) return stored.error();
    for (const StoredRating& x : *stored) ratings_.try_emplace({account, x.rating_class}, x);
    if (auto it = ratings_.find({account, rating_class}); it != ratings_.end()) return it->second;
    return initial_rating(rating_class);
}

void Hub::end_game_tasks(Room& r) {
    if (r.robot_request) {
        r.robot_request = 0;
        if (env_.cancel_robot) env_.cancel_robot(r.id());
    }
    if (env_.cancel_dead_position) env_.cancel_dead_position(r.id());
    if (r.counted_open) {
        r.counted_open = false;
        if (--open_games_[r.client] <= 0) open_games_.erase(r.client);
    }
}

void Hub::schedule(Room& r) {
    if (r.game.is_over() || !env_.call_back_in) return;
    const Millis now = env_.monotonic_ms();
    if (r.waiting_for_resumption()) {  // R18: the agreed time, or a look for the arbiter's
        Millis d = env_.arbiter_poll_ms;
        if (r.adjourned->resume_at_ms) d = std::min<Millis>(d, std::max<Millis>(0, r.adjourned->resume_at_ms - env_.wall_ms()) + 1);
        env_.call_back_in(r.id(), d);
        return;
    }
    if (r.clock && r.clock->running()) {
        const Color c = *r.clock->running_side();
        env_.call_back_in(r.id(), std::max<Millis>(0, r.clock->remaining(c) + r.clock->delay_left(c)) + 1);
    } else if (r.game.ply() < 2) {
        const Millis limit = first_move_limit(r);
        env_.call_back_in(r.id(), std::max<Millis>(0, r.turn_began + limit - now) + 1);
    }
}

bool Hub::check_timeouts(Room& r) {
    if (r.game.is_over()) return false;
    if (r.waiting_for_resumption()) return check_resumption(r);
    if (r.check_flag()) return true;
    if (r.clock && r.clock->running()) return false;
    // R14, online default: no first moves in time abort the game without result; a
    // robot or hotseat game that was never started leaves after unstarted_abort_ms.
    // On an event's or a simul's board the side to move loses by forfeit instead.
    if (r.game.ply() < 2 && env_.monotonic_ms() - r.turn_began >= first_move_limit(r)) {
        if (r.info.first_move.empty()) (void)r.game.abort();
        else (void)r.game.forfeit(r.game.side_to_move());
        if (r.clock) r.clock->stop();
        return true;
    }
    return false;
}

Millis Hub::first_move_limit(const Room& r) const {
    const std::string& rule = r.info.first_move;
    if (rule.empty()) return r.invite() ? env_.first_move_timeout_ms : env_.unstarted_abort_ms;
    const Color mover = r.game.side_to_move();
    // A simul's host walks from board to board: the host's first move has the long limit.
    if ((rule == "forfeit-host-white" && mover == WHITE) || (rule == "forfeit-host-black" && mover == BLACK))
        return env_.unstarted_abort_ms;
    return env_.first_move_timeout_ms;
}

void Hub::on_timer(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    const int ply = r.game.ply();
    if (check_timeouts(r)) commit(r, Change::STATE, ply);
    else schedule(r);
}

void Hub::maybe_ask_robot(Room& r) {
    if (r.game.is_over() || !env_.ask_robot) return;
    const Color turn = r.game.side_to_move();
    if (!r.robot(turn) || r.robot_request) return;
    RobotRequest req;
    req.game_id = r.id();
    req.request_id = r.robot_request = ++next_robot_request_;
    req.asked_at_ms = env_.monotonic_ms();
    req.ply = r.game.ply();
    req.start = r.game.start_position();
    req.moves = r.game.moves();
    req.level = r.info.robot_level;
    req.elo = r.info.robot_level ? 0 : r.info.robot_elo;
    req.instant = r.robot_instant;
    if (r.clock && !r.clock->time_control().correspondence()) {
        const Period& p = r.clock->time_control().periods.front();
        req.my_time = std::max<Millis>(0, r.clock->remaining(turn));
        req.their_time = std::max<Millis>(0, r.clock->remaining(~turn));
        req.my_inc = req.their_inc = p.increment + p.delay;
    }
    env_.ask_robot(std::move(req));
}

void Hub::on_robot_move(const std::string& id, std::uint64_t request_id, Move move) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    // Only the answer to the outstanding request counts: an answer computed for a position
    // that was since taken back (same ply count, other position) is stale.
    if (request_id == 0 || request_id != r.robot_request) return;
    r.robot_request = 0;
    if (r.game.is_over() || !r.robot(r.game.side_to_move())) return;
    const int ply = r.game.ply();
    const bool was_over = r.game.is_over();
    auto done = r.play(r.game.side_to_move(), move, std::nullopt, 0, env_.wall_ms(), env_.monotonic_ms());
    if (!done) {
        // A flag that fell is news; a robot that cannot move legally has lost its mind:
        // it is asked again.
        commit(r, !was_over && r.game.is_over() ? Change::STATE : Change::NONE, ply);
        return;
    }
    commit(r, Change::MOVE, ply);
}

}  // namespace outpost::server
