// Outpost — the hub's rematch (docs/protocol.md, "rematch"): offered and accepted after
// the game, the colours swapped, a new game of the first game's creator under the
// open-games cap; with several nodes its place in the count every node keeps is held
// first, off the network thread (issue 26).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include "chess/fen.h"
#include "server/observe/metrics.h"

namespace outpost::server {

namespace {

constexpr const char* RematchRefused =
    "no rematch now: the player who made this game has as many unfinished games as one may have; "
    "finish, resign or abort one first";

}  // namespace

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
    // Issue 26: with several nodes, its place in the count every node keeps is asked for
    // first, off this thread (handle_message posts it; rematch_with_place comes back).
    if (env_.shared_limits && env_.run_blocking && !c.reserved && !r.client.empty()) {
        if (rematch_asking_.insert(r.id()).second) c.reserve_first = true;
        return Change::NONE;  // asked for already: this one changes nothing
    }
    // Issue 25: a rematch is a new game of the first game's creator, under the same cap
    // (the one who accepts may be the other player: the message says whose games).
    if (auto over = over_open_cap(r.client)) {
        over->message = RematchRefused;
        return *over;
    }
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
    c.made = made.id;
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

// On run_blocking's thread: the place is asked for (it may wait for Redis), then the
// rematch message is handled again holding it: the game is made unless something
// changed meanwhile (another connection made it; the cap was reached on this node),
// and the place becomes the new game's or is given back.
void Hub::rematch_with_place(const std::string& id, Seat seat, const in::Rematch& m, std::weak_ptr<Subscriber> who,
                             const std::string& client) {
    struct Asked {
        Hub& hub;
        const std::string& id;
        ~Asked() {
            std::lock_guard lock(hub.mutex_);
            hub.rematch_asking_.erase(id);
        }
    } asked{*this, id};
    auto place = reserve_open_place(client);
    auto from = who.lock();
    if (!from) return;  // the connection is gone: the place is given back
    if (const auto& over = place->refused()) {
        metrics().limit_refusals.inc("open_games");
        ProtocolError e = open_cap_refusal(over->first, over->second);
        e.message = RematchRefused;
        return from->deliver(std::make_shared<const std::string>(error_json(e)));
    }
    std::string made;
    handle_message(id, seat, ClientMessage{m}, *from, 0, place.get(), &made);
    if (!made.empty()) place->made(made);
}

}  // namespace outpost::server
