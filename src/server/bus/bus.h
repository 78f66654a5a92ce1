// Outpost — the bus between connections and the rooms that own games, the lobby,
// events and simuls: addresses, the typed envelopes, the owners' interface and the
// Bus interface. The in-process implementation is in_process_bus.h.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// As lila-ws and lila: a connection never calls a room. The edge joins a connection to
// an address ("game:ID", "lobby", "event:ID", "simul:ID"), sends what the client writes
// there, and leaves; the bus makes each message a ClientIn (a game's read once into
// protocol.h's typed ClientMessage) and routes it to the owner of the address's
// topic (BusHandler: the hub for games, the lobby, the simul service), asking the
// GameDirectory which node runs a game. The owner decides at the join what the
// connection may do there (its seat: credentials are checked once, by the owner); the
// bus remembers it and stamps it on every ClientIn, so a connection cannot claim
// another seat in a later message.
//
// What happened goes back the other way as out-events: the owner delivers the JSON
// text (one shared_ptr per audience, never copied per connection) to the Subscriber
// handles it was given at the join — to everyone following the game with a seat's view,
// or to one connection (an error, a pong). The bus wraps the owner's table of followers
// rather than owning it: who follows a game with which seat is state of the game (the
// presence, abandonment claims, eviction of finished games), and the hub's delivery
// order is the one the code had, unchanged:
//  - a change goes to the followers only once the storage writer reports it durable
//    (the hub's commit()); a spectator never sees a move before it is durable;
//  - answers to one connection keep their order on its single-writer queue, and an
//    acknowledgement (the move itself, sent after durable) is never overtaken by a later
//    message to the same connection (those go after the pending writes too);
//  - in process, delivery is a direct call: no thread hop, no copy, no re-parse.
// The Redis bus of "Many machines" plugs in here: its handle for a connection on
// another node is a proxy Subscriber that publishes to that node's channel in order, and
// its send() forwards a ClientIn to the node the GameDirectory names.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/accounts/accounts.h"
#include "server/bus/subscriber.h"
#include "server/common/protocol.h"

namespace outpost::server {

enum class Topic : std::uint8_t { GAME, LOBBY, EVENT, SIMUL };
inline constexpr int TopicCount = 4;

// Where a message goes: a topic and, but for the lobby, the id of a game, event or simul.
struct Address {
    Topic topic = Topic::GAME;
    std::string id;

    static Address game(std::string id) { return {Topic::GAME, std::move(id)}; }
    static Address lobby() { return {Topic::LOBBY, {}}; }
    static Address event(std::string id) { return {Topic::EVENT, std::move(id)}; }
    static Address simul(std::string id) { return {Topic::SIMUL, std::move(id)}; }
    // "game:ID", "lobby", "event:ID", "simul:ID"; none for anything else.
    static std::optional<Address> parse(std::string_view text);
    std::string text() const;
    auto operator<=>(const Address&) const = default;
};

// What a connection shows when it joins: the owner checks it (a seat's token, a simul's
// key, the signed-in account, the peer's key for per-client limits).
struct Credentials {
    std::string_view token;
    const Account* account = nullptr;
    std::string client;
};

// A message of a connection to an address: the seat the owner gave the connection at
// the join, the client's JSON text as received, and for a game's address the message
// as the bus read it (protocol.h: each message one typed case; one that does not read
// is answered by the bus and goes no further). The lobby's and the simuls' messages
// are theirs to read. Also the lag measured on the connection (C5).
struct ClientIn {
    const Address& to;
    Subscriber& from;
    Seat seat = Seat::SPECTATOR;
    std::string_view text;
    const ClientMessage* message = nullptr;  // set for Topic::GAME
    Millis lag_ms = 0;
};

// The owner of one topic's addresses on this node. Called without any lock of the
// bus held; it answers a connection through the Subscriber (never the bus).
class BusHandler {
public:
    virtual ~BusHandler() = default;
    // A connection follows `at`; sends it the first state. The seat it holds there, or
    // why it may not follow (no such game, a token of no seat...).
    virtual Answer<Seat> on_join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) = 0;
    virtual void on_message(const ClientIn& in) = 0;
    virtual void on_leave(const Address& at, const Subscriber* who) = 0;
};

class Bus {
public:
    virtual ~Bus() = default;
    // The owner of a topic on this node (one per topic; null: none).
    virtual void serve(Topic topic, BusHandler* owner) = 0;
    // An unknown address, a topic nobody serves, or a game run elsewhere: an error.
    virtual Answer<Seat> join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) = 0;
    // A message of a connection that has joined `at`; anything else is answered with an
    // error to `from` only.
    virtual void send(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms = 0) = 0;
    virtual void leave(const Address& at, const Subscriber* who) = 0;
};

}  // namespace outpost::server
