// Outpost — a game's state as each seat sees it (docs/protocol.md: `state`, `move`,
// `presence`): one writer of the live fields for a state and for its deltas, so that
// folding the moves into a state gives exactly the state.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/state_json.h"

#include <array>
#include <cstdio>

#include "chess/bitboard.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "engine/skill.h"
#include "server/accounts/ratings.h"
#include "server/common/json_writer.h"
#include "server/play/adjournment.h"
#include "server/play/presence.h"
#include "server/play/room.h"

namespace outpost::server {

namespace {

using Writer = JsonWriter;

std::optional<std::string_view> color_or_null(const std::optional<Color>& c) {
    if (!c) return std::nullopt;
    return color_name(*c, Capital::NO);
}

// The legal moves by origin square as the board shows them: for each square the
// set of destinations, standard castling also as king-takes-rook (as lichess does),
// Chess960 castling as king-takes-rook only (as UCI writes it).
void write_legal(Writer& w, const Position& pos) {
    std::array<Bitboard, 64> dests{};
    for (Move m : legal_moves(pos)) {
        Bitboard& d = dests[size_t(m.from())];
        d |= square_bb(m.to());
        if (m.kind() == Move::CASTLING && !pos.is_chess960())
            d |= square_bb(make_square(m.to() > m.from() ? FILE_G : FILE_C, rank_of(m.from())));
    }
    w.open('{');
    for (int from = 0; from < 64; ++from) {
        if (!dests[size_t(from)]) continue;
        w.key(square_name(Square(from))).open('[');
        for (Bitboard b = dests[size_t(from)]; b; b &= b - 1) w.str(square_name(lsb(b)));
        w.close(']');
    }
    w.close('}');
}

// P6: the result in words. A forfeit after the first moves is an abandonment
// (docs/protocol.md): Game's words for it speak of a first move.
std::string end_text(const Game& g) {
    if (!g.is_over()) return "";
    const Outcome& o = g.outcome();
    if (o.reason == Status::FORFEIT && o.winner && g.ply() >= 2)
        return std::string(*o.winner == WHITE ? "White wins: Black" : "Black wins: White") + " left the game";
    return describe(o);
}

// P22: each seat's connection state and the time until an abandonment claim.
void write_presence_field(Writer& w, const Room& r, Millis now) {
    w.key("presence").open('{');
    for (Color c : {WHITE, BLACK}) {
        const SeatPresence p = seat_presence(r, c, now);
        w.key(c == WHITE ? "white" : "black").open('{').key("state").str(presence_name(p.state));
        if (p.state == PresenceState::GONE) w.key("gone_ms").num(p.gone_ms);
        w.close('}');
    }
    w.key("claim_in_ms");
    if (auto in = abandonment_claim_in(r, now, r.abandonment_ms)) w.num(*in);
    else w.null();
    w.close('}');
}

// The fields of STATE that a move can change: written by write_state and write_move
// alike, so that a `move` folded into a state is exactly the next state.
void write_live_fields(Writer& w, const Room& r, Seat seat, Millis server_time) {
    const Game& g = r.game;
    const Position& pos = g.position();
    const Color turn = pos.side_to_move();
    w.key("id").str(r.id());
    w.key("fen").str(to_fen(pos));
    w.key("turn").str(color_name(turn, Capital::NO));
    w.key("last_move").str_or_null(r.history.empty() ? std::nullopt : std::optional<std::string_view>(r.history.back().uci));
    w.key("check").str_or_null(pos.in_check() ? std::optional<std::string_view>(square_name(pos.king_square(turn))) : std::nullopt);
    w.key("legal");
    if (r.may_move(seat)) write_legal(w, pos);
    else w.open('{').close('}');
    w.key("status").str(status_id(g.status()));
    w.key("result").str(result_string(g.outcome()));
    w.key("winner").str_or_null(color_or_null(g.outcome().winner));
    w.key("end").str(end_text(g));
    if (!r.arbiter_reason.empty()) w.key("arbiter_reason").str(r.arbiter_reason);  // FIDE 12.9 (hub_arbiter.cpp)
    w.key("claimable").open('[');
    for (DrawClaim c : g.claimable_draws()) w.str(claim_id(c));
    w.close(']');
    w.key("draw_offer").str_or_null(color_or_null(g.draw_offer()));
    w.key("takeback_request").str_or_null(color_or_null(r.takeback_request));
    w.key("can_abort").boolean(g.can_abort() && !r.forfeits_first_move());
    w.key("awaiting_friend").boolean(r.awaiting_friend());  // issue 28: an invitation not yet opened  // R14: event and simul boards are not aborted
    w.key("clock").open('{');
    if (r.clock) {
        w.key("white_ms").num(std::max<Millis>(0, r.clock->remaining(WHITE)));
        w.key("black_ms").num(std::max<Millis>(0, r.clock->remaining(BLACK)));
        w.key("running").str_or_null(color_or_null(r.clock->running_side()));
        // Issue 28: what is left of the running side's simple delay as the server counts
        // it (0: none), so that a client that joins during a move shows it exactly.
        const auto running = r.clock->running_side();
        w.key("delay_ms").num(running ? r.clock->delay_left(*running) : 0);
        w.key("server_time").num(server_time);
        w.key("time_control").str(r.info.time_control);
        w.key("class").str(time_class_name(r.clock->time_control().classify()));
    } else {
        w.key("white_ms").null().key("black_ms").null().key("running").null();
        w.key("delay_ms").num(0);
        w.key("server_time").num(server_time);
        w.key("time_control").str("-").key("class").str("unlimited");
    }
    w.close('}');
    write_presence_field(w, r, server_time);
}

// R18: what everyone may see of an adjournment. The sealed move only once the game
// has resumed (until then it is in the envelope, which no message shows).
void write_adjournment(Writer& w, const Room& r) {
    w.key("adjournable").boolean(r.info.adjournable);
    w.key("adjournment");
    if (!r.adjourned) {
        w.null();
        return;
    }
    const AdjournState& a = *r.adjourned;
    auto time_or_null = [&](std::int64_t ms) {
        if (ms) w.str(format_iso_time(ms));
        else w.null();
    };
    w.open('{');
    w.key("sealed_by").str(color_name(a.envelope.sealed_by, Capital::NO));
    w.key("move_number").num(a.envelope.move_number);
    w.key("sealed_at");
    time_or_null(a.sealed_at_ms);
    w.key("resume_at");
    time_or_null(a.resume_at_ms);
    w.key("proposal");
    if (a.proposal_by && a.waiting()) {
        w.open('{').key("by").str(color_name(*a.proposal_by, Capital::NO)).key("at");
        time_or_null(a.proposal_at_ms);
        w.close('}');
    } else {
        w.null();
    }
    w.key("resumed_at");
    time_or_null(a.resumed_at_ms);
    w.key("sealed_move");
    if (a.waiting()) w.null();
    else w.str(a.envelope.sealed_move);
    w.key("white_ms").num(a.envelope.white_ms).key("black_ms").num(a.envelope.black_ms);
    w.close('}');
}

void write_player(Writer& w, const Room& r, Color c) {
    w.open('{');
    const bool robot = r.robot(c);
    w.key("kind").str(robot ? "robot" : "human");
    const std::string& name = c == WHITE ? r.info.white_name : r.info.black_name;
    w.key("name").str(name);
    // P21: the seat's account (its name, which is then the seat's name), or null.
    const bool account = (c == WHITE ? r.info.white_account : r.info.black_account) != 0;
    w.key("account").str_or_null(account ? std::optional<std::string_view>(name) : std::nullopt);
    if (robot) {
        w.key("level").num(r.info.robot_level);
        w.key("elo").num(r.info.robot_elo);
    }
    // P23: once a rated game is over, the rating before it and the change.
    if (r.info.rating) {
        const GameRating::Side& s = r.info.rating->side[c];
        w.key("rating").num(s.before).key("provisional").boolean(s.provisional).key("rating_diff").num(s.diff);
    }
    w.close('}');
}

// `players`: both sides, as a state and the move that ends a rated game write them.
void write_players(Writer& w, const Room& r) {
    w.key("players").open('{');
    w.key("white");
    write_player(w, r, WHITE);
    w.key("black");
    write_player(w, r, BLACK);
    w.close('}');
}

}  // namespace

std::string write_state(const Room& r, Seat seat, Millis server_time, std::string_view node) {
    Writer w(1024 + 16 * r.history.size());
    w.open('{').key("v").num(1).key("t").str("state").key("node").str(node).key("game").open('{');
    w.key("node").str(node);
    w.key("variant").str(r.info.variant);
    w.key("chess960");
    if (r.info.chess960 >= 0) w.num(r.info.chess960);
    else w.null();
    w.key("initial_fen").str(r.info.initial_fen);
    w.key("ply").num(r.game.ply());
    w.key("pgn_plies").num(r.preset_plies);  // the first moves, from the PGN the game started from
    w.key("moves").open('[');
    for (const PlyRecord& p : r.history) w.str(p.uci);
    w.close(']');
    w.key("san").open('[');
    for (const PlyRecord& p : r.history) w.str(p.san);
    w.close(']');
    write_live_fields(w, r, seat, server_time);
    w.key("casual").boolean(r.info.casual);
    w.key("rated").boolean(rated_class(r.info).has_value());  // P23 (accounts/ratings.h)
    write_adjournment(w, r);
    write_players(w, r);
    w.key("you").str(seat_name(seat));
    w.key("rematch").open('{');
    w.key("offered_by").str_or_null(color_or_null(r.rematch_offer));
    w.key("game").str_or_null(r.info.rematch_game.empty() ? std::nullopt : std::optional<std::string_view>(r.info.rematch_game));
    std::optional<std::string_view> rematch_seat;
    if (!r.info.rematch_game.empty()) {
        if (seat == Seat::WHITE_SEAT || seat == Seat::BOTH) rematch_seat = r.info.rematch_white_token;
        else if (seat == Seat::BLACK_SEAT) rematch_seat = r.info.rematch_black_token;
        if (rematch_seat && rematch_seat->empty()) rematch_seat.reset();
    }
    w.key("seat").str_or_null(rematch_seat);
    w.close('}');
    w.close('}').close('}');
    return w.take();
}

std::string write_move(const Room& r, Seat seat, Millis server_time) {
    Writer w(640);
    w.open('{').key("v").num(1).key("t").str("move").key("game").open('{');
    w.key("ply").num(r.game.ply());
    w.key("uci").str(r.history.back().uci);
    w.key("san").str(r.history.back().san);
    write_live_fields(w, r, seat, server_time);
    // Issue 28 (6): a rated game that this move ended (checkmate, stalemate…) has
    // its ratings now, which a state carries in `players`: so does its last move.
    if (r.info.rating) write_players(w, r);
    w.close('}').close('}');
    return w.take();
}

std::string write_presence(const Room& r, Millis server_time) {
    Writer w(256);
    w.open('{').key("v").num(1).key("t").str("presence").key("game").open('{');
    w.key("id").str(r.id());
    write_presence_field(w, r, server_time);
    w.close('}').close('}');
    return w.take();
}
}  // namespace outpost::server
