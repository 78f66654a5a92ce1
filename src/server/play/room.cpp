// Outpost — a room: one live game.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/room.h"

#include <algorithm>

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost::server {
namespace {

std::optional<Color> color_from(std::string_view s) {
    if (s == "white") return WHITE;
    if (s == "black") return BLACK;
    return std::nullopt;
}

std::string plies_to_csv(const std::vector<int>& v) {
    std::string s;
    for (int p : v) s += (s.empty() ? "" : ",") + std::to_string(p);
    return s;
}

// A heap block of n bytes as glibc's malloc spends it: 8 bytes of header, rounded up
// to 16, at least 32.
size_t heap_block(size_t n) { return n == 0 ? 0 : std::max<size_t>(32, (n + 8 + 15) / 16 * 16); }

// A string's bytes beyond its object: none while it fits in the object (SSO).
size_t heap_bytes(const std::string& s) { return s.capacity() > 15 ? heap_block(s.capacity() + 1) : 0; }

template <class T>
size_t heap_bytes(const std::vector<T>& v) {
    return heap_block(v.capacity() * sizeof(T));
}

}  // namespace

size_t Room::approx_bytes() const {
    size_t n = heap_block(sizeof(Room));
    n += heap_bytes(game.positions()) + heap_bytes(game.moves()) + heap_bytes(game.draw_offer_plies());
    n += heap_bytes(history);
    for (const PlyRecord& p : history) n += heap_bytes(p.uci) + heap_bytes(p.san);
    for (const std::string* s :
         {&info.id, &info.white_token, &info.black_token, &info.white_kind, &info.black_kind, &info.white_name,
          &info.black_name, &info.time_control, &info.variant, &info.initial_fen, &info.status, &info.result,
          &info.draw_offer, &info.takeback_request, &info.offer_plies, &info.running, &info.rematch_of,
          &info.rematch_game, &info.rematch_white_token, &info.rematch_black_token, &info.client, &info.adjournment,
          &info.first_move, &client})
        n += heap_bytes(*s);
    if (adjourned) n += heap_block(sizeof(AdjournState));
    // The followers' map and set: a node each (three pointers, a colour, the value).
    n += (subscribers.size() + away.size()) * heap_block(64);
    return n;
}

bool Room::may_move(Seat seat) const {
    const Color turn = game.side_to_move();
    return !game.is_over() && !waiting_for_resumption() && (seat == Seat::BOTH || seat_color(seat) == turn) && !robot(turn);
}

Seat Room::seat_of(std::string_view token) const {
    if (token.empty()) return Seat::SPECTATOR;
    const bool w = !robot(WHITE) && token == info.white_token;
    const bool b = !robot(BLACK) && token == info.black_token;
    if (w && b) return Seat::BOTH;
    if (w) return Seat::WHITE_SEAT;
    if (b) return Seat::BLACK_SEAT;
    return Seat::SPECTATOR;
}

bool Room::connected(Color c) const {
    for (const auto& [p, sub] : subscribers)
        if (!sub.first.expired() && (sub.second == Seat::BOTH || seat_color(sub.second) == c)) return true;
    return false;
}

bool Room::check_flag() {
    if (game.is_over() || !clock || !clock->running()) return false;
    const Color c = *clock->running_side();
    if (!clock->flag_fallen(c)) return false;
    clock->stop();
    (void)game.flag_fell(c);
    return true;
}

Answer<bool> Room::play(Color mover, Move m, std::optional<DrawClaim> claim, Millis lag_ms, std::int64_t wall_ms,
                        Millis now_ms) {
    if (game.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(game.outcome()), 409};
    if (check_flag()) return ProtocolError{"game_over", "time is up: " + describe(game.outcome()), 409};
    // Time first: a move that arrives after the flag fell does not count. The clock is
    // pressed on a copy, kept only if the move is legal.
    std::optional<Clock> pressed = clock;
    if (pressed && clock_started && !pressed->press(mover, std::max<Millis>(0, lag_ms))) {
        clock = pressed;  // as the failed press left it: the flag fell
        clock->stop();
        (void)game.flag_fell(mover);
        return ProtocolError{"game_over", "time is up: " + describe(game.outcome()), 409};
    }
    const Position& before = game.position();
    PlyRecord rec;
    rec.uci = move_to_uci(before, m);
    rec.san = move_to_san(before, m);  // before play: it needs the position the move starts from
    auto played = claim ? game.claim_draw_with_move(*claim, m) : game.play(m);
    if (!played) return ProtocolError{"illegal_move", played.error().message, 400};
    if (clock) {
        if (clock_started) clock = std::move(pressed);
        else if (game.ply() >= 2) {
            clock->start(game.side_to_move());
            clock_started = true;
        }
        if (game.is_over()) clock->stop();
    }
    // The first two moves are not timed (the clock starts after them): no reading.
    rec.clock_after = clock && clock_started && game.ply() > 2 ? clock->remaining(mover) : -1;
    rec.white_ms = clock ? clock->remaining(WHITE) : 0;
    rec.black_ms = clock ? clock->remaining(BLACK) : 0;
    rec.at_ms = wall_ms;
    history.push_back(std::move(rec));
    takeback_request.reset();
    turn_began = now_ms;
    return true;
}

Answer<bool> Room::take_back(int plies) {
    if (plies < 1 || plies > game.ply()) return not_allowed("there is no move to take back");
    auto res = game.takeback(plies);
    if (!res) return not_allowed(res.error().message);
    history.resize(size_t(game.ply()));
    takeback_request.reset();
    if (clock && clock->running() && game.ply() >= 2) {
        // The clock of the side to move now runs; times stay as they were.
        const Millis w = clock->remaining(WHITE), b = clock->remaining(BLACK);
        clock->stop();
        clock->set_remaining(WHITE, w);
        clock->set_remaining(BLACK, b);
        clock->start(game.side_to_move());
    }
    return true;
}

StoredGame Room::row(std::int64_t wall_ms) const {
    StoredGame r = info;
    r.updated_ms = wall_ms;
    r.status = std::string(status_id(game.status()));
    r.result = std::string(result_string(game.outcome()));
    r.draw_offer = game.draw_offer() ? color_name(*game.draw_offer(), Capital::NO) : "";
    r.takeback_request = takeback_request ? color_name(*takeback_request, Capital::NO) : "";
    r.offer_plies = plies_to_csv(game.draw_offer_plies());
    if (clock) {
        r.white_ms = clock->remaining(WHITE);
        r.black_ms = clock->remaining(BLACK);
        r.running = clock->running_side() ? color_name(*clock->running_side(), Capital::NO) : "";
    }
    r.turn_started_ms = wall_ms;
    // C3: the deadline as an absolute time, for the reader of the row and "My games".
    r.deadline_ms = 0;
    if (clock && clock->running_side() && !game.is_over()) {
        const Color c = *clock->running_side();
        r.deadline_ms = wall_ms + std::max<Millis>(0, clock->remaining(c) + clock->delay_left(c));
    }
    r.adjournment = adjourned ? adjournment_to_json(*adjourned) : "";
    // The creator's address counts against its open-games cap after a restart too; it
    // is not kept once the game is over.
    r.client = game.is_over() ? "" : client;
    return r;
}

StoredMove Room::stored_move(int ply) const {
    const PlyRecord& p = history[size_t(ply - 1)];
    return StoredMove{ply, p.uci, p.white_ms, p.black_ms, p.at_ms, p.clock_after};
}

Result<std::unique_ptr<Room>> room_from_stored(StoredGame g, const Clock::TimeSource& monotonic, std::int64_t wall_now) {
    auto start = position_from_fen(g.initial_fen, g.variant == "chess960");
    if (!start) return make_error("game " + g.id + ": stored start position: " + start.error().message);
    GameOptions options;
    options.auto_claim_draws = g.casual;
    std::vector<StoredMove> moves = std::move(g.moves);
    auto room = std::make_unique<Room>(std::move(g), Game(*start, options));
    Room& r = *room;
    r.client = r.info.client;
    const bool timed_game = r.info.time_control != "-";
    for (const StoredMove& m : moves) {
        auto mv = move_from_uci(r.game.position(), m.uci);
        if (!mv) return make_error("game " + r.info.id + ", ply " + std::to_string(m.ply) + ": " + mv.error().message);
        PlyRecord rec;
        rec.uci = m.uci;
        rec.san = move_to_san(r.game.position(), *mv);
        const Color mover = r.game.side_to_move();
        // Rows written before the clock reading was stored: the mover's clock, when timed.
        rec.clock_after = m.clock_after >= -1 ? m.clock_after
                                               : (timed_game && r.game.ply() >= 2 ? (mover == WHITE ? m.white_ms : m.black_ms) : -1);
        rec.white_ms = m.white_ms;
        rec.black_ms = m.black_ms;
        rec.at_ms = m.at_ms;
        if (auto p = r.game.play(*mv); !p) return make_error("game " + r.info.id + ", ply " + std::to_string(m.ply) + ": " + p.error().message);
        // The moves of a PGN the game started from were stored with it, at its
        // creation and without a clock reading: nobody's to take back (issue 28).
        if (r.preset_plies == int(r.history.size()) && rec.at_ms == r.info.created_ms && rec.clock_after == -1)
            ++r.preset_plies;
        r.history.push_back(std::move(rec));
    }
    // Endings that are not decided by the board come from the stored status.
    if (!r.game.is_over() && r.info.status != "ongoing") {
        const auto status = status_from_id(r.info.status);
        const bool decisive = r.info.result == "1-0" || r.info.result == "0-1";
        const Color loser = r.info.result == "1-0" ? BLACK : WHITE;  // meaningful when decisive
        switch (status.value_or(Status::ABORTED)) {
        case Status::RESIGNATION:
            if (decisive) (void)r.game.resign(loser);
            else (void)r.game.abort();
            break;
        case Status::AGREEMENT:
            (void)r.game.offer_draw(WHITE);
            (void)r.game.accept_draw(BLACK);
            break;
        case Status::TIMEOUT:
        case Status::TIMEOUT_DRAW: (void)r.game.flag_fell(decisive ? loser : r.game.side_to_move()); break;
        case Status::THREEFOLD_REPETITION: (void)r.game.claim_draw(DrawClaim::THREEFOLD_REPETITION); break;
        case Status::FIFTY_MOVES: (void)r.game.claim_draw(DrawClaim::FIFTY_MOVES); break;
        case Status::FORFEIT: (void)r.game.forfeit(loser); break;
        case Status::ARBITER_DECISION: (void)r.game.arbiter_decision(decisive ? std::optional<Color>(~loser) : std::nullopt); break;
        default: (void)r.game.abort(); break;
        }
    }
    if (!r.game.is_over()) {
        if (auto c = color_from(r.info.draw_offer)) {
            (void)r.game.offer_draw(*c);
            r.last_offer_ply[*c] = r.game.ply();
        }
        r.takeback_request = color_from(r.info.takeback_request);
    }
    if (!r.info.adjournment.empty()) {
        auto a = adjournment_from_json(r.info.adjournment);
        if (!a) return make_error("game " + r.info.id + ": " + a.error().message);
        r.adjourned = std::move(*a);
    }
    auto tc = parse_time_control(r.info.time_control);
    if (tc && !tc->unlimited()) {
        r.clock.emplace(*tc, monotonic);
        // Presses are the moves made from ply 2 on (the first two moves are untimed).
        const Color first = start->side_to_move();
        int presses[COLOR_NB] = {0, 0};
        for (int i = 2; i < r.game.ply(); ++i) ++presses[(i % 2) ? ~first : first];
        r.clock->restore(WHITE, r.info.white_ms, presses[WHITE]);
        r.clock->restore(BLACK, r.info.black_ms, presses[BLACK]);
        // C3: a correspondence clock runs from the first move on; an adjourned game's
        // clocks stay stopped until it resumes (R18).
        if (r.game.ply() >= 2 || tc->correspondence()) r.clock_started = true;
        if (!r.game.is_over() && r.clock_started && !r.waiting_for_resumption()) {
            r.clock->start(r.game.side_to_move(), std::max<std::int64_t>(0, wall_now - r.info.turn_started_ms));
        }
    }
    r.turn_began = monotonic() - std::max<std::int64_t>(0, wall_now - r.info.turn_started_ms);
    // R14 on an event's or simul's board: a player does not lose for the time the server
    // was down; the first move has its whole time again after a restart.
    if (!r.info.first_move.empty() && r.game.ply() < 2) r.turn_began = monotonic();
    r.absent_since[WHITE] = r.absent_since[BLACK] = monotonic();
    return room;
}

}  // namespace outpost::server
