// Outpost — the hub's handling of a player's messages: moves, claims, resignation, abort,
// draws, takebacks, time given, rematch and names (docs/protocol.md); each handler says
// what changed, and commit() (hub_commit.cpp) stores it and tells everyone
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"
#include "server/play/state_json.h"

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost::server {

namespace {

ProtocolError game_over(const Game& g) { return {"game_over", "the game is over: " + describe(g.outcome()), 409}; }

}  // namespace

// --- Messages ------------------------------------------------------------------------

void Hub::handle_message(const std::string& id, Seat seat, std::string_view text, Subscriber& from, Millis lag_ms) {
    auto parsed = read_client_message(text);
    if (!parsed) return from.deliver(std::make_shared<const std::string>(error_json(parsed.error())));
    handle_message(id, seat, *parsed, from, lag_ms);
}

void Hub::handle_message(const std::string& id, Seat seat, const ClientMessage& msg, Subscriber& from, Millis lag_ms) {
    handle_message(id, seat, msg, from, lag_ms, nullptr, nullptr);
}

void Hub::handle_message(const std::string& id, Seat seat, const ClientMessage& msg, Subscriber& from, Millis lag_ms,
                         SharedOpenCap* reserved, std::string* made) {
    const auto received = std::chrono::steady_clock::now();
    auto reply_error = [&](const ProtocolError& e) { from.deliver(std::make_shared<const std::string>(error_json(e))); };
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
        auto state = std::make_shared<const std::string>(write_state(r, seat, env_.monotonic_ms(), env_.node));
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
    Context c{r, seat, seat_color(seat).value_or(r.game.side_to_move()), lag_ms, reserved, false, {}};
    const bool was_over = r.game.is_over();
    const int ply_before = r.game.ply();
    Handled done = std::visit([&](const auto& m) { return handle(c, m); }, msg);
    if (made) *made = c.made;
    if (c.reserve_first) {
        // Issue 26: a rematch's place among the open games every node counts is asked
        // for first, off this thread (it may wait for Redis); the rematch is made then.
        auto sub = r.subscribers.find(&from);
        const auto* m = std::get_if<in::Rematch>(&msg);
        if (m && sub != r.subscribers.end() &&
            env_.run_blocking([this, id, seat, m = *m, who = sub->second.first, client = r.client] {
                rematch_with_place(id, seat, m, who, client);
            }))
            return;
        rematch_asking_.erase(id);
        return reply_error({"rate_limited", "the server is busy; try the rematch again in a few seconds", 503});
    }
    if (!done) {
        reply_error(done.error());
        if (!was_over && r.game.is_over()) commit(r, Change::STATE, ply_before);  // a flag fell as the move came in
        return;
    }
    if (std::holds_alternative<in::Move>(msg)) move_received_ = received;
    commit(r, *done, ply_before);
    move_received_.reset();
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
    if (c.room.forfeits_first_move())
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

}  // namespace outpost::server
