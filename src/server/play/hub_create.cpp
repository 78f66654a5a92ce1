// Outpost — the hub's creation of games: the HTTP request read, the per-client caps, the start
// position (FEN, PGN, Chess960), the seats and their tokens, and the first write;
// games made by a service with a chosen id (events, simuls) answered again, not made twice
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <future>
#include <random>

#include "chess/chess960.h"
#include "server/observe/metrics.h"
#include "chess/fen.h"
#include "chess/pgn.h"
#include "server/common/game_bounds.h"
#include "server/common/guards.h"
#include "server/play/shared_open_cap.h"

namespace outpost::server {

// --- Creating games ----------------------------------------------------------------

Answer<CreatedGame> Hub::create_game(std::string_view body, std::string_view client, const Account* account,
                                     const Account* opponent, bool invitation) {
    auto spec = read_new_game(body);
    if (!spec) return spec.error();
    if (invitation && spec->opponent == "invite") spec->first_move = "invite";  // issue 28: waits for the friend
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
    // Issue 25: the PGN read and replayed before the lock.
    auto start = read_start(*spec);
    if (!start) return start.error();
    // C3: correspondence games are counted apart, under a cap of their own.
    // Issue 25: an IPv6 client is its /64 (common/guards.h address_group).
    // Issue 25: a signed-in creator's account is counted as well as the address, so
    // that many addresses do not give one account more games. A service that passes
    // no client (simul boards; events use create_event_game) is not counted.
    std::string key = client.empty() ? std::string() : address_group(client);
    if (!key.empty() && account) key += " account:" + std::to_string(account->id);
    if (auto tc = parse_time_control(spec->time_control); tc && tc->correspondence() && !key.empty()) {
        if (const size_t space = key.find(' '); space != std::string::npos) key.insert(space, "/correspondence");
        key += "/correspondence";
    }
    // Issue 26: a place among the creator's open games counted by every node, held before
    // the lock (it may wait for Redis) and given back unless the game is made.
    auto shared_cap = reserve_open_place(key);
    if (const auto& over = shared_cap->refused()) {
        metrics().limit_refusals.inc("open_games");
        return open_cap_refusal(over->first, over->second);
    }
    std::promise<Result<bool>> durable;
    auto stored = durable.get_future();
    Answer<CreatedGame> created = ProtocolError{};
    {
        std::lock_guard lock(mutex_);
        if (auto over = over_open_cap(key)) return *over;
        const std::int64_t creator_account = account && spec->opponent != "hotseat" ? account->id : 0;
        auto before = made_before(*spec, creator_account, opponent_account);
        if (!before) return before.error();
        if (*before) return **before;
        StorageWriter::Done on_durable = [&durable](const Result<bool>& ok) { durable.set_value(ok); };
        created = create_room(*spec, "", key, on_durable, creator_account, opponent_account, &*start);
        if (!created) return created;
    }
    // D3: the answer goes out once the game is stored.
    if (auto ok = stored.get(); !ok) {
        std::lock_guard lock(mutex_);
        (void)find(created.value().id);  // drops the room that storage does not have
        return ProtocolError{"internal", "the game could not be stored: " + ok.error().message, 500};
    }
    shared_cap->made(created.value().id);
    return created;
}

// Entries count at most as long as an open game may wait unstarted (its end, if it never
// reached Redis, is forgotten then); a correspondence game's, a year.
std::unique_ptr<SharedOpenCap> Hub::reserve_open_place(const std::string& client) {
    static std::atomic<std::uint64_t> reservations{0};
    return std::make_unique<SharedOpenCap>(
        client.empty() ? nullptr : env_.shared_limits, open_keys(client),
        "pending:" + (env_.random_token ? env_.random_token(16) : std::to_string(++reservations)),
        [this](const std::string& k) {
            const bool corr = k.ends_with("/correspondence");
            return SharedOpenCap::Cap{open_cap_of(k),
                                      corr ? 366LL * 86'400'000 : env_.invite_wait_ms + env_.unstarted_abort_ms + 86'400'000};
        });
}

std::vector<std::string> Hub::open_keys(const std::string& client) {
    std::vector<std::string> keys;
    size_t at = 0;
    while (at < client.size()) {
        const size_t space = std::min(client.find(' ', at), client.size());
        if (space > at) keys.push_back(client.substr(at, space - at));
        at = space + 1;
    }
    return keys;
}

int Hub::open_cap_of(const std::string& key) const {
    return key.ends_with("/correspondence") ? env_.max_open_correspondence_per_client : env_.max_open_games_per_client;
}

ProtocolError Hub::open_cap_refusal(const std::string& key, int cap) {
    return ProtocolError{"rate_limited",
                         std::string(key.starts_with("account:") ? "your account has " : "you have ") + std::to_string(cap) +
                             " unfinished games; finish, resign or abort one before you start another",
                         429};
}

std::optional<ProtocolError> Hub::over_open_cap(const std::string& client) const {
    for (const std::string& key : open_keys(client)) {
        const int cap = open_cap_of(key);
        if (open_games_of(key) < cap) continue;
        metrics().limit_refusals.inc("open_games");
        return open_cap_refusal(key, cap);
    }
    return std::nullopt;
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

Answer<Hub::Start> Hub::read_start(const NewGameRequest& spec) const {
    Start s;
    s.wall_ms = env_.wall_ms();
    // The game's id, not taken in storage (read here, not under the lock: a long read
    // of the database by someone else must not hold the games).
    for (int tries = 0; spec.game_id.empty() && storage_; ++tries) {
        s.id = env_.random_token(8);
        auto taken = storage_->load_game(s.id);
        if (!taken) return ProtocolError{"internal", taken.error().message, 500};
        if (!taken->has_value()) break;
        if (tries > 100) return ProtocolError{"internal", "no free game id", 500};
    }
    GameOptions options;
    options.auto_claim_draws = spec.casual;
    if (!spec.pgn.empty()) {
        auto game = read_pgn_game(spec.pgn);
        if (!game) return bad_request("PGN: " + game.error().message);
        s.position = game->start;
        const std::vector<Move> moves = game->mainline();
        // A bound in plies (issue 25).
        if (int(moves.size()) > MaxStartPlies)
            return bad_request("PGN: a game starts from at most " + std::to_string(MaxStartPlies) + " plies (" +
                               std::to_string(MaxStartPlies / 2) + " moves); this one has " +
                               std::to_string(moves.size()));
        s.replayed = std::make_unique<Room>(StoredGame{}, Game(s.position, options));
        Room& r = *s.replayed;
        const Millis now = env_.monotonic_ms();
        for (Move m : moves) {
            if (auto p = r.play(r.game.side_to_move(), m, std::nullopt, 0, s.wall_ms, now); !p)
                return bad_request("PGN: a move could not be replayed");
            if (r.game.is_over()) return bad_request("the game in the PGN is already over: " + describe(r.game.outcome()));
        }
    } else if (!spec.fen.empty()) {
        auto pos = position_from_fen(spec.fen, spec.chess960);
        if (!pos) return bad_request("FEN: " + pos.error().message);
        s.position = *pos;
    } else if (spec.chess960) {
        static thread_local std::mt19937 rng{std::random_device{}()};  // a start position, not a secret
        s.chess960 = spec.chess960_number.value_or(int(rng() % 960));
        s.position = chess960_position(s.chess960).value();
    }
    return s;
}

Answer<CreatedGame> Hub::create_room(const NewGameRequest& spec, const std::string& rematch_of, std::string client,
                                     StorageWriter::Done on_durable, std::int64_t creator_account,
                                     std::int64_t opponent_account, Start* prepared) {
    // Issue 25: every game, however made (a request, the lobby, a rematch, a simul, an
    // event), within the server's bounds (common/game_bounds.h).
    auto tc = read_served_time_control(spec.time_control);
    if (!tc) return tc.error();
    if (spec.adjournment && tc->correspondence())
        return bad_request("a correspondence game is not adjourned: each move has its days already");

    // The start position (P13, R16), read before the lock by create_game.
    Start here;
    if (!prepared) {
        auto read = read_start(spec);
        if (!read) return read.error();
        here = std::move(*read);
        prepared = &here;
    }
    const Position start = prepared->position;
    const int number = prepared->chess960;
    GameOptions options;
    options.auto_claim_draws = spec.casual;

    static thread_local std::mt19937 coin{std::random_device{}()};  // colours by lot, not a secret
    const Color creator = spec.creator_color.value_or(coin() % 2 ? WHITE : BLACK);
    const bool robot = spec.opponent == "robot";

    StoredGame info;
    if (!spec.game_id.empty()) info.id = spec.game_id;  // not taken: made_before looked
    for (int tries = 0; spec.game_id.empty(); ++tries) {
        const bool chosen = tries == 0 && !prepared->id.empty();  // free in storage (read_start)
        info.id = chosen ? prepared->id : env_.random_token(8);
        if (rooms_.count(info.id)) continue;
        if (!storage_ || chosen) break;
        auto taken = storage_->load_game(info.id);
        if (!taken) return ProtocolError{"internal", taken.error().message, 500};
        if (!taken->has_value()) break;
        if (tries > 100) return ProtocolError{"internal", "no free game id", 500};
    }
    info.created_ms = info.updated_ms = prepared->wall_ms;
    // Issue 26: a new game runs on the node that makes it, under its lease.
    if (env_.take_game) {
        auto token = env_.take_game(info.id, 0);
        if (!token) return ProtocolError{"unavailable", "this node could not take the new game's lease; try again", 503};
        info.fence = *token;
    }
    const std::string creator_token = env_.random_token(22);
    CreatedGame created;
    created.id = info.id;
    if (spec.opponent == "hotseat") {
        info.white_token = info.black_token = creator_token;
        info.white_kind = info.black_kind = "human";
        info.white_name = spec.name;
        // Issue 28: no name for Black is "Anonymous", not White's name ("Wanda vs Wanda").
        info.black_name = spec.opponent_name.empty() ? "Anonymous" : spec.opponent_name;
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

    std::unique_ptr<Room> room;
    if (prepared->replayed) {  // the PGN's moves, played before the lock
        room = std::move(prepared->replayed);
        room->info = std::move(info);
    } else {
        room = std::make_unique<Room>(std::move(info), Game(start, options));
    }
    Room& r = *room;
    const Millis now = env_.monotonic_ms();
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

}  // namespace outpost::server
