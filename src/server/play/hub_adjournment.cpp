// Outpost — the hub's part of adjourned games (SPEC R18, P19; FIDE Laws, Guidelines I):
// sealing a move, agreeing on the resumption time, and resuming. docs/protocol.md,
// "Adjournment".
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include "chess/fen.h"

namespace outpost::server {

namespace {
constexpr std::int64_t MaxAheadMs = 366LL * 86'400'000;  // a resumption at most a year ahead
}

// I.1: the player to move seals a move (written, not played); the clocks stop. The
// text is kept as written: it is judged only when the game resumes (I.6, I.10).
Hub::Handled Hub::handle(Context& c, const in::Seal& m) {
    Room& r = c.room;
    Game& g = r.game;
    if (g.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(g.outcome()), 409};
    if (!r.info.adjournable) return not_allowed("this game was created without the adjournment option");
    if (r.waiting_for_resumption()) return ProtocolError{"adjourned", "the game is already adjourned", 409};
    if (r.adjourned) return not_allowed("this game has been adjourned once already");
    const Color turn = g.side_to_move();
    if (c.me != turn || r.robot(turn)) return ProtocolError{"not_your_turn", "only the player to move seals a move", 409};
    if (r.check_flag()) return ProtocolError{"game_over", "time is up: " + describe(g.outcome()), 409};
    if (r.clock) r.clock->stop();
    const Millis white_ms = r.clock ? std::max<Millis>(0, r.clock->remaining(WHITE)) : 0;
    const Millis black_ms = r.clock ? std::max<Millis>(0, r.clock->remaining(BLACK)) : 0;
    auto envelope = g.adjourn(m.move, r.info.white_name, r.info.black_name, white_ms, black_ms);
    if (!envelope) return not_allowed(envelope.error().message);
    AdjournState a;
    a.envelope = std::move(*envelope);
    a.ply = g.ply();
    a.sealed_at_ms = env_.wall_ms();
    r.adjourned = std::move(a);
    r.takeback_request.reset();
    return Change::STATE;
}

// The resumption time: proposed by one player, accepted by the other (at one screen or
// against the robot, set at once); an administrator may set it instead (`outpost game
// resume`).
Hub::Handled Hub::handle(Context& c, const in::Resume& m) {
    Room& r = c.room;
    if (r.game.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(r.game.outcome()), 409};
    if (!r.waiting_for_resumption()) return not_allowed("the game is not adjourned");
    AdjournState& a = *r.adjourned;
    if (m.accept) {
        if (!a.proposal_by || (*a.proposal_by == c.me && c.seat != Seat::BOTH))
            return not_allowed("there is no resumption time proposed by your opponent to accept");
        a.resume_at_ms = a.proposal_at_ms;
        a.proposal_by.reset();
        return Change::STATE;
    }
    const std::int64_t wall = env_.wall_ms();
    if (m.at_ms <= wall) return bad_request("the resumption time must be in the future");
    if (m.at_ms > wall + MaxAheadMs) return bad_request("the resumption time must be within a year");
    if (c.seat == Seat::BOTH || r.robot(~c.me)) {  // at one screen, or the robot: agreed at once
        a.resume_at_ms = m.at_ms;
        a.proposal_by.reset();
    } else {
        a.proposal_by = c.me;
        a.proposal_at_ms = m.at_ms;
    }
    return Change::STATE;
}

// I.10: at the resumption the envelope is opened; the sealed move is played on the
// board (and the sealer's clock pressed), or, when it is illegal or ambiguous, the
// sealer loses (Game::play_sealed_move decides which).
bool Hub::check_resumption(Room& r) {
    if (!r.waiting_for_resumption()) return false;
    AdjournState& a = *r.adjourned;
    bool changed = false;
    if (storage_) {
        auto arbiter = storage_->arbiter_resume_at(r.id());
        if (arbiter && *arbiter > 0 && *arbiter != a.resume_at_ms) {
            a.resume_at_ms = *arbiter;
            a.proposal_by.reset();
            changed = true;
        }
    }
    const std::int64_t wall = env_.wall_ms();
    if (!a.resume_at_ms || wall < a.resume_at_ms) return changed;
    a.resumed_at_ms = wall;
    const Color sealer = a.envelope.sealed_by;
    const std::optional<Move> move = Game::sealed_move_in(r.game.position(), a.envelope.sealed_move);
    if (move && to_fen(r.game.position()) == a.envelope.fen_before_sealed_move) {
        if (r.clock && r.clock_started) r.clock->start(sealer);
        auto played = r.play(sealer, *move, std::nullopt, 0, wall, env_.monotonic_ms());
        a.sealed_move_played = played.ok();
        if (!played && !r.game.is_over()) (void)r.game.play_sealed_move(a.envelope);
    } else {
        (void)r.game.play_sealed_move(a.envelope);  // the sealer loses
    }
    if (r.game.is_over() && r.clock) r.clock->stop();
    return true;
}

}  // namespace outpost::server
