// Outpost — the lobby (SPEC P22): seeks to create and accept, quick pairing by time
// control between waiting players of close rating, and the list of games being
// played now. Its own part beside the hub: the hub feeds it the games (HubEnv::
// on_live_game), and it asks the hub for a game when two players meet (LobbyEnv::
// create_game). Members are WebSocket connections (/api/v1/lobby, docs/protocol.md
// "Lobby"); a member's seeks live as long as its connection.
//
// Locking: the lobby has one mutex and never calls out (to the hub) while holding it;
// the hub calls on_live_game under its own lock. So there is no lock cycle.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/clock.h"
#include "server/accounts/accounts.h"
#include "server/play/hub.h"  // LiveGame
#include "server/common/protocol.h"
#include "server/bus/subscriber.h"

namespace outpost::server {

// A member's rating in a class, as the lobby compares them (anonymous: 1500, provisional).
struct LobbyRating {
    int rating = 1500;
    bool provisional = true;
};

struct LobbyEnv {
    std::function<Millis()> monotonic_ms;
    // Creates an invite game from a new-game body (docs/protocol.md) for `client`
    // (the owner of the seek, for the open-games cap; `owner`: its signed-in account,
    // `other`: the other player's, which the seats record, P21); both seat tokens come back.
    std::function<Answer<CreatedGame>(const std::string& body, const std::string& client, const Account* owner,
                                      const Account* other)>
        create_game;
    // A signed-in member's rating in a class ("bullet", …, "chess960"); none when the
    // account has none yet (1500?).
    std::function<std::optional<LobbyRating>(const std::string& account, std::string_view rating_class)> rating;
    // Bounds (docs/protocol.md "Lobby").
    int max_seeks_per_client = 3;   // per client address (an IPv6 /64) and per account, quick pairing included
    size_t max_seeks = 500;         // in the whole lobby
    size_t max_anonymous_seeks = 250;  // of them, by members not signed in (issue 25)
    size_t max_games_listed = 50;   // the most recently started games
    // Quick pairing: two waiting players are paired when their ratings differ by at
    // most quick_range_base + quick_range_per_second × (seconds the shorter waiter has waited).
    int quick_range_base = 100;
    int quick_range_per_second = 20;
    // Coin for the colours of a "random" seek (tests fix it).
    std::function<bool()> coin;
};

// The quick-pairing buttons (P22).
inline constexpr const char* QuickTimeControls[] = {"1+0", "3+2", "5+3", "10+0", "15+10", "30+0"};

class Lobby {
public:
    explicit Lobby(LobbyEnv env);

    // A connection enters the lobby (account: none when anonymous); it is sent the
    // lobby at once.
    void join(const std::shared_ptr<Subscriber>& who, const std::string& client, const Account* account = nullptr);
    // The connection closed: its seeks go with it.
    void leave(const Subscriber* who);
    // A message of a member; errors go back to it.
    void handle_message(Subscriber& from, std::string_view text);
    // Every half second or so: pairs the quick seeks whose ranges have widened enough,
    // and sends the lobby to every member if it changed.
    void tick();
    // From the hub, after every change of a game.
    void on_live_game(const LiveGame& g);
    // Several nodes (issue 26): this node runs the lobby again after another did; the
    // games it listed before may have ended meanwhile. The list starts empty and fills
    // with the games' next reports.
    void forget_games();

    // For tests.
    size_t seeks() const;
    size_t members() const;
    size_t games_listed() const;

private:
    struct Member {
        std::weak_ptr<Subscriber> sub;
        std::string client, account, name = "Anonymous";  // account: its name, "" when anonymous
        std::optional<Account> signed_in;
    };
    struct Seek {
        std::string id;
        const Subscriber* owner = nullptr;
        std::string time_control;  // canonical (TimeControl::to_string)
        std::string rating_class;
        bool chess960 = false, rated = false, quick = false;
        std::optional<Color> color;  // the owner's; none: by lot
        std::optional<int> rating_min, rating_max;
        LobbyRating rating;
        std::string name;
        Millis created = 0;
    };
    // Two players to seat in a new game, found under the lock and made outside it.
    struct Pairing {
        Seek seek;  // the owner's side of it
        std::weak_ptr<Subscriber> owner, other;
        std::string owner_client, other_name;
        LobbyRating other_rating;
        std::optional<Account> owner_account, other_account;
    };

    LobbyRating rating_of(const Member& m, std::string_view rating_class) const;
    std::optional<ProtocolError> add_seek(const Member& m, Seek s);
    void remove_seeks_of(const Subscriber* who);
    int seeks_of_client(const std::string& client) const;
    int seeks_of_account(const std::string& account) const;  // by its name
    size_t anonymous_seeks() const;
    std::vector<Pairing> find_quick_pairs(Millis now);
    void make_games(std::vector<Pairing> pairs);
    std::string snapshot_common() const;
    void send_lobby_to(const Subscriber* who, const std::string& common);

    LobbyEnv env_;
    // This lobby's name in every `lobby` message (docs/protocol.md): a page that sees it
    // change knows its seeks were left behind (another node runs the lobby now: issue 26)
    // and posts them again. Random at start; not a secret.
    std::string instance_;
    mutable std::mutex mutex_;
    std::map<const Subscriber*, Member> members_;
    std::vector<Seek> seeks_;  // oldest first
    struct Listed {
        LiveGame game;
        std::uint64_t seq = 0;  // its place in the order the games started
        std::string speed;      // its time control as the quick-pairing buttons write it ("" for another)
    };
    std::map<std::string, Listed> games_;
    std::vector<std::string> started_;  // ids of listed games, in the order they started
    std::uint64_t next_game_seq_ = 0;
    std::map<std::string, int> playing_by_speed_;  // games being played per quick-pairing time control
    bool in_the_list(const Listed& g) const;         // among the max_games_listed newest
    std::uint64_t next_seek_ = 0;
    bool dirty_ = false;
};

}  // namespace outpost::server
