// Outpost — the bus within one process: addresses read and written, the joined
// connections' seats, and the routing to the owners of the topics.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/in_process_bus.h"

namespace outpost::server {
namespace {

constexpr std::string_view TopicNames[TopicCount] = {"game", "lobby", "event", "simul"};

ProtocolError no_address(const std::string& what) { return {"not_found", "no such address: " + what, 404}; }

}  // namespace

std::optional<Address> Address::parse(std::string_view text) {
    if (text == "lobby") return lobby();
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon + 1 == text.size()) return std::nullopt;
    const std::string_view name = text.substr(0, colon);
    for (int t = 0; t < TopicCount; ++t)
        if (name == TopicNames[t] && Topic(t) != Topic::LOBBY) return Address{Topic(t), std::string(text.substr(colon + 1))};
    return std::nullopt;
}

std::string Address::text() const {
    std::string s(TopicNames[int(topic)]);
    if (topic != Topic::LOBBY) s.append(":").append(id);
    return s;
}

InProcessBus::InProcessBus(const GameDirectory* directory) : directory_(directory ? directory : &single_) {}

void InProcessBus::serve(Topic topic, BusHandler* owner) {
    std::lock_guard lock(mutex_);
    owners_[int(topic)] = owner;
}

Answer<BusHandler*> InProcessBus::route(const Address& at) const {
    BusHandler* owner = nullptr;
    {
        std::lock_guard lock(mutex_);
        if (int(at.topic) < TopicCount) owner = owners_[int(at.topic)];
    }
    return checked(at, owner);
}

Answer<BusHandler*> InProcessBus::checked(const Address& at, BusHandler* owner) const {
    if (!owner || (at.topic == Topic::LOBBY && !at.id.empty())) return no_address(at.text());
    // Another node's game: the Redis bus forwards; in one process there is none.
    if (at.topic == Topic::GAME && !directory_->runs_here(at.id))
        return ProtocolError{"unavailable", "game " + at.id + " is run by another node", 503};
    return owner;
}

Answer<Seat> InProcessBus::join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) {
    auto owner = route(at);
    if (!owner) return owner.error();
    auto seat = (*owner)->on_join(at, who, c);
    if (!seat) return seat;
    std::lock_guard lock(mutex_);
    joined_[{who.get(), at}] = *seat;
    return seat;
}

void InProcessBus::send(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms) {
    // One lock a message: the owner and the seat the connection holds there.
    BusHandler* owner = nullptr;
    std::optional<Seat> seat;
    {
        std::lock_guard lock(mutex_);
        if (int(at.topic) < TopicCount) owner = owners_[int(at.topic)];
        if (auto it = joined_.find({&from, at}); it != joined_.end()) seat = it->second;
    }
    auto routed = checked(at, owner);
    if (!routed) return from.deliver(std::make_shared<const std::string>(error_json(routed.error())));
    if (!seat)
        return from.deliver(std::make_shared<const std::string>(
            error_json({"not_joined", "join " + at.text() + " before sending to it", 409})));
    if (at.topic != Topic::GAME) return owner->on_message(ClientIn{at, from, *seat, text, nullptr, lag_ms});
    auto message = read_client_message(text);  // read once, here; the hub takes it typed
    if (!message) return from.deliver(std::make_shared<const std::string>(error_json(message.error())));
    owner->on_message(ClientIn{at, from, *seat, text, &*message, lag_ms});
}

void InProcessBus::leave(const Address& at, const Subscriber* who) {
    {
        std::lock_guard lock(mutex_);
        if (joined_.erase({who, at}) == 0) return;
    }
    if (auto owner = route(at)) (*owner)->on_leave(at, who);
}

size_t InProcessBus::joined() const {
    std::lock_guard lock(mutex_);
    return joined_.size();
}

}  // namespace outpost::server
