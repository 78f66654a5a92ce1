// Outpost — the hub's connections to a game: who follows it with which seat, the first
// state, the presence of the players (P22), the seat an account takes (P21), and the
// hub as the owner of the games' addresses on the bus
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"
#include "server/play/presence.h"
#include "server/play/state_json.h"

namespace outpost::server {

namespace {

// The account a seat is bound to (0: none, a robot's, or both seats at one screen).
std::int64_t seat_account(const Room& r, Seat seat) {
    if (seat == Seat::WHITE_SEAT) return r.info.white_account;
    if (seat == Seat::BLACK_SEAT) return r.info.black_account;
    return 0;
}

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

// --- Connections -------------------------------------------------------------------

Answer<Seat> Hub::connect(const std::string& id, std::string_view token, const std::shared_ptr<Subscriber>& who,
                          const Account* account) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    Room& r = *found.value();
    Seat seat = r.seat_of(token);
    if (!token.empty() && seat == Seat::SPECTATOR)
        return ProtocolError{"not_your_seat", "this seat token does not belong to game " + id, 403};
    // P21: a signed-in player opening a seat nobody's account holds takes it (the
    // others see the new name); otherwise the seat stays as it is.
    if (account) {
        if (auto taken = take_seat(r, seat, *account); taken && *taken) commit(r, Change::STATE, r.game.ply());
    }
    // Issue 25: a seat that is an account's (claimed, or seated so from the start) is
    // played by that account's sessions only; the bare token makes its holder a
    // spectator, told why after the state.
    std::optional<ProtocolError> demoted;
    if (const std::int64_t owner = seat_account(r, seat); owner != 0 && (!account || account->id != owner)) {
        const std::string& name = seat == Seat::WHITE_SEAT ? r.info.white_name : r.info.black_name;
        demoted = ProtocolError{"not_your_seat",
                                "this seat is played by the account " + name + ": sign in as " + name +
                                    " to play it; you are watching",
                                403};
        seat = Seat::SPECTATOR;
    }
    r.subscribers[who.get()] = {who, seat};
    // Issue 28: the friend has opened the invitation: from now on the first moves are
    // due as R14 says (the timer re-armed from this moment).
    if (r.awaiting_friend() && r.connected(WHITE) && r.connected(BLACK)) {
        r.both_arrived = true;
        r.turn_began = env_.monotonic_ms();
        schedule(r);
    }
    if (seat != Seat::SPECTATOR) send_presence(writer_, r, env_.monotonic_ms(), who.get());
    // The first state goes after any acknowledgement still on its way to storage, so
    // that it never shows a move before the move is durable nor overtakes one.
    auto msg = std::make_shared<const std::string>(write_state(r, seat, env_.monotonic_ms(), env_.node));
    auto note = demoted ? std::make_shared<const std::string>(error_json(*demoted)) : nullptr;
    std::weak_ptr<Subscriber> weak = who;
    writer_.after_pending([weak, msg, note](const Result<bool>&) {
        if (auto s = weak.lock()) {
            s->deliver(msg);
            if (note) s->deliver(note);
        }
    });
    return seat;
}

Answer<bool> Hub::take_seat(Room& r, Seat seat, const Account& account) {
    if (account.id <= 0 || account.disabled) return not_allowed("not signed in");
    if (seat == Seat::BOTH) return not_allowed("a game at one screen has no accounts");
    const auto c = seat_color(seat);
    if (!c) return ProtocolError{"not_your_seat", "this seat token does not belong to the game", 403};
    if (r.game.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(r.game.outcome()), 409};
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

void Hub::broadcast_presence(Room& r) { send_presence(writer_, r, env_.monotonic_ms(), nullptr); }

// --- On the bus ------------------------------------------------------------------------

Answer<Seat> Hub::on_join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) {
    return connect(at.id, c.token, who, c.account);
}

void Hub::on_message(const ClientIn& in) {
    // Issue 25: the seat the bus kept from the join may have become an account's since
    // (a claim over HTTP): only that account's connections act for it from then on.
    const bool acts = !in.message || !(std::holds_alternative<in::Ping>(*in.message) || std::holds_alternative<in::Sync>(*in.message));
    if (acts && (in.seat == Seat::WHITE_SEAT || in.seat == Seat::BLACK_SEAT)) {
        std::int64_t owner = 0;
        {
            std::lock_guard lock(mutex_);
            if (auto it = rooms_.find(in.to.id); it != rooms_.end()) owner = seat_account(*it->second, in.seat);
        }
        if (owner != 0 && in.from.account_id() != owner)
            return in.from.deliver(std::make_shared<const std::string>(error_json(
                {"not_your_seat", "this seat is played by its account's sessions: sign in to play it", 403})));
    }
    if (in.message) handle_message(in.to.id, in.seat, *in.message, in.from, in.lag_ms);
    else handle_message(in.to.id, in.seat, in.text, in.from, in.lag_ms);
}

void Hub::on_leave(const Address& at, const Subscriber* who) { disconnect(at.id, who); }

}  // namespace outpost::server
