// Outpost — the lobby (SPEC P22).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/players/lobby.h"
#include "server/common/http_answer.h"
#include "server/common/game_bounds.h"
#include "server/common/guards.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "server/accounts/ratings.h"

namespace outpost::server {
namespace {

using nlohmann::json;


std::shared_ptr<const std::string> message(const json& j) { return std::make_shared<const std::string>(dump_json(j)); }

// Reads an optional field; a present field of another type is an error naming it.
template <class T>
std::optional<ProtocolError> field(const json& j, const char* name, std::optional<T>& out) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if constexpr (std::is_same_v<T, std::string>) {
        if (!it->is_string()) return bad_request(std::string("field '") + name + "' must be a string");
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean()) return bad_request(std::string("field '") + name + "' must be true or false");
    } else {
        if (!it->is_number_integer()) return bad_request(std::string("field '") + name + "' must be a whole number");
        const auto v = it->get<std::int64_t>();
        if (v < 0 || v > 4000) return bad_request(std::string("field '") + name + "' must be 0 to 4000");
    }
    out = it->get<T>();
    return std::nullopt;
}

}  // namespace

Lobby::Lobby(LobbyEnv env) : env_(std::move(env)) {
    std::random_device random;
    const std::uint64_t n = (std::uint64_t(random()) << 32) ^ random();
    for (int i = 0; i < 12; ++i) instance_ += "0123456789abcdefghijklmnopqrstuvwxyz"[(n >> (5 * i)) % 36];
    if (!env_.coin) env_.coin = [] {
        static thread_local std::mt19937 rng{std::random_device{}()};  // colours, not secrets
        return (rng() & 1) != 0;
    };
}

LobbyRating Lobby::rating_of(const Member& m, std::string_view rating_class) const {
    if (m.account.empty() || !env_.rating) return {};
    return env_.rating(m.account, rating_class).value_or(LobbyRating{});
}

int Lobby::seeks_of_client(const std::string& client) const {
    int n = 0;
    for (const Seek& s : seeks_) {
        auto m = members_.find(s.owner);
        n += m != members_.end() && m->second.client == client;
    }
    return n;
}

int Lobby::seeks_of_account(const std::string& account) const {
    int n = 0;
    for (const Seek& s : seeks_) {
        auto m = members_.find(s.owner);
        n += m != members_.end() && !account.empty() && m->second.account == account;
    }
    return n;
}

size_t Lobby::anonymous_seeks() const {
    size_t n = 0;
    for (const Seek& s : seeks_) {
        auto m = members_.find(s.owner);
        n += m != members_.end() && m->second.account.empty();
    }
    return n;
}

void Lobby::remove_seeks_of(const Subscriber* who) {
    const size_t before = seeks_.size();
    std::erase_if(seeks_, [who](const Seek& s) { return s.owner == who; });
    dirty_ = dirty_ || seeks_.size() != before;
}

// --- Members -------------------------------------------------------------------------

void Lobby::join(const std::shared_ptr<Subscriber>& who, const std::string& client, const Account* account) {
    std::string common;
    {
        std::lock_guard lock(mutex_);
        Member& m = members_[who.get()];
        m.sub = who;
        m.client = address_group(client);  // issue 25: an IPv6 client is its /64
        if (account) {
            m.signed_in = *account;
            m.account = account->name;
            m.name = account->name;
        }
        common = snapshot_common();
    }
    send_lobby_to(who.get(), common);
}

void Lobby::leave(const Subscriber* who) {
    std::lock_guard lock(mutex_);
    remove_seeks_of(who);
    members_.erase(who);
}

// --- Messages ------------------------------------------------------------------------

void Lobby::handle_message(Subscriber& from, std::string_view text) {
    auto reply_error = [&](const ProtocolError& e) { from.deliver(std::make_shared<const std::string>(error_json(e))); };
    if (text.size() > MaxMessageBytes) return reply_error(bad_request("message too large"));
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return reply_error(bad_request("the message must be a JSON object"));
    if (auto v = j.find("v"); v != j.end() && !(v->is_number_integer() && v->get<int>() == 1))
        return reply_error(bad_request("unsupported protocol version (this server speaks v1)"));
    std::optional<std::string> type, name, seek_id;
    for (auto e : {field(j, "t", type), field(j, "name", name), field(j, "seek", seek_id)})
        if (e) return reply_error(*e);
    if (!type) return reply_error(bad_request("field 't' (the message type) is missing"));
    if (name) {
        auto ok = read_player_name(*name, "name");  // P21: the one rule for names
        if (!ok) return reply_error(ok.error());
        *name = *ok;
    }
    if (*type == "ping") return from.deliver(message({{"v", 1}, {"t", "pong"}}));

    std::vector<Pairing> pairs;
    std::string common;
    {
        std::lock_guard lock(mutex_);
        auto me = members_.find(&from);
        if (me == members_.end()) return reply_error(bad_request("not in the lobby"));
        Member& m = me->second;
        if (name && m.account.empty()) m.name = *name;

        if (*type == "seek" || *type == "quick") {
            const bool quick = *type == "quick";
            std::optional<std::string> tc_text, variant, color;
            std::optional<bool> rated;
            std::optional<int> rmin, rmax;
            for (auto e : {field(j, "time_control", tc_text), field(j, "variant", variant), field(j, "color", color)})
                if (e) return reply_error(*e);
            for (auto e : {field(j, "rating_min", rmin), field(j, "rating_max", rmax)})
                if (e) return reply_error(*e);
            if (auto e = field(j, "rated", rated)) return reply_error(*e);
            if (!tc_text) return reply_error(bad_request("field 'time_control' is missing"));
            auto tc = read_served_time_control(*tc_text);  // issue 25: echoed in every snapshot
            if (!tc) return reply_error(tc.error());
            Seek s;
            s.time_control = tc->to_string();  // one spelling per time control ("1+0" is "1")
            if (quick) {
                // The buttons' spelling, so that "1" and "1+0" wait for the same button.
                auto it = std::find_if(std::begin(QuickTimeControls), std::end(QuickTimeControls), [&](const char* q) {
                    auto qt = parse_time_control(q);
                    return qt && qt->to_string() == s.time_control;
                });
                if (it == std::end(QuickTimeControls))
                    return reply_error(bad_request("quick pairing is for 1+0, 3+2, 5+3, 10+0, 15+10 and 30+0"));
                s.time_control = *it;
            }
            if (variant && *variant != "standard" && *variant != "chess960")
                return reply_error(bad_request("variant must be 'standard' or 'chess960'"));
            s.chess960 = variant && *variant == "chess960";
            if (quick && s.chess960) return reply_error(bad_request("quick pairing is for standard chess"));
            if (color && *color != "white" && *color != "black" && *color != "random")
                return reply_error(bad_request("color must be 'white', 'black' or 'random'"));
            if (!quick && color && *color != "random") s.color = *color == "white" ? WHITE : BLACK;
            if (rmin && rmax && *rmin > *rmax) return reply_error(bad_request("rating_min is above rating_max"));
            s.rating_min = quick ? std::nullopt : rmin;
            s.rating_max = quick ? std::nullopt : rmax;
            s.rated = rated.value_or(false);
            s.quick = quick;
            auto cls = rating_class_of(*tc, s.chess960);
            if (s.rated && !cls) return reply_error(not_allowed("a game without a clock is not rated"));
            s.rating_class = cls.value_or("");
            if (auto e = add_seek(m, std::move(s))) return reply_error(*e);
            if (quick) pairs = find_quick_pairs(env_.monotonic_ms());
        } else if (*type == "cancel") {
            const size_t before = seeks_.size();
            std::erase_if(seeks_, [&](const Seek& s) { return s.owner == &from && (!seek_id || s.id == *seek_id); });
            dirty_ = dirty_ || seeks_.size() != before;
        } else if (*type == "accept") {
            if (!seek_id) return reply_error(bad_request("field 'seek' is missing"));
            auto it = std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.id == *seek_id; });
            if (it == seeks_.end())
                return reply_error({"not_found", "that seek is gone (accepted by someone else or withdrawn)", 404});
            if (it->owner == &from) return reply_error(not_allowed("this is your own seek"));
            if (it->rated && m.account.empty())
                return reply_error({"account_required", "rated games are played between two signed-in accounts", 403});
            const LobbyRating mine = rating_of(m, it->rating_class);
            if ((it->rating_min && mine.rating < *it->rating_min) || (it->rating_max && mine.rating > *it->rating_max))
                return reply_error(not_allowed("your rating (" + std::to_string(mine.rating) +
                                               ") is outside the range this seek asks for"));
            auto owner = members_.find(it->owner);
            if (owner == members_.end()) return reply_error({"not_found", "that seek is gone", 404});
            Pairing p{*it, owner->second.sub, me->second.sub, owner->second.client, m.name, mine, owner->second.signed_in,
                      m.signed_in};
            remove_seeks_of(it->owner);
            remove_seeks_of(&from);
            pairs.push_back(std::move(p));
        } else {
            return reply_error(bad_request("unknown lobby message type '" + type->substr(0, 32) + "'"));
        }
        // The one who acted sees the result at once; the others at the next tick.
        common = snapshot_common();
    }
    send_lobby_to(&from, common);
    make_games(std::move(pairs));
}

std::optional<ProtocolError> Lobby::add_seek(const Member& m, Seek s) {
    const Subscriber* who = nullptr;
    for (const auto& [p, member] : members_)
        if (&member == &m) who = p;
    if (s.rated && m.account.empty())
        return ProtocolError{"account_required", "rated games are played between two signed-in accounts", 403};
    // Without a rating store a "rated" game would change no rating: refused, not faked.
    if (s.rated && !env_.rating) return not_allowed("this server keeps no ratings yet: seek a casual game");
    if (seeks_of_client(m.client) >= env_.max_seeks_per_client)
        return ProtocolError{"rate_limited",
                             "at most " + std::to_string(env_.max_seeks_per_client) +
                                 " seeks at once from one address; cancel one first",
                             429};
    // Issue 25: an account's share, from however many addresses and connections.
    if (!m.account.empty() && seeks_of_account(m.account) >= env_.max_seeks_per_client)
        return ProtocolError{"rate_limited",
                             "at most " + std::to_string(env_.max_seeks_per_client) +
                                 " seeks at once for one account; cancel one first",
                             429};
    if (seeks_.size() >= env_.max_seeks) return ProtocolError{"rate_limited", "the lobby is full; try again soon", 429};
    // Issue 25: anonymous seeks (many addresses, no account) fill at most a share of
    // the lobby, so that signed-in players always find room.
    if (m.account.empty() && anonymous_seeks() >= env_.max_anonymous_seeks)
        return ProtocolError{"rate_limited", "the lobby's room for anonymous seeks is full; sign in, or try again soon", 429};
    if (s.quick)
        for (const Seek& o : seeks_)
            if (o.owner == who && o.quick && o.time_control == s.time_control)
                return not_allowed("you are already waiting for a " + s.time_control + " game");
    s.id = "s" + std::to_string(++next_seek_);
    s.owner = who;
    s.rating = rating_of(m, s.rating_class);
    s.name = m.name;
    s.created = env_.monotonic_ms();
    seeks_.push_back(std::move(s));
    dirty_ = true;
    return std::nullopt;
}

// --- Quick pairing ---------------------------------------------------------------------

// Two quick seeks of the same time control, both rated or both casual, of different
// members, whose ratings differ by no more than the range of the one who has waited
// less (the range widens with waiting: base + per_second × seconds). The longest
// waiting seek is served first, with the closest rating.
std::vector<Lobby::Pairing> Lobby::find_quick_pairs(Millis now) {
    std::vector<Pairing> out;
    auto range = [&](const Seek& s) {
        return std::int64_t(env_.quick_range_base) + env_.quick_range_per_second * std::max<Millis>(0, now - s.created) / 1000;
    };
    for (size_t i = 0; i < seeks_.size(); ++i) {
        const Seek& a = seeks_[i];
        if (!a.quick) continue;
        std::optional<size_t> best;
        for (size_t k = i + 1; k < seeks_.size(); ++k) {
            const Seek& b = seeks_[k];
            if (!b.quick || b.owner == a.owner || b.time_control != a.time_control || b.rated != a.rated) continue;
            const int diff = std::abs(a.rating.rating - b.rating.rating);
            if (diff > std::min(range(a), range(b))) continue;
            if (!best || diff < std::abs(a.rating.rating - seeks_[*best].rating.rating)) best = k;
        }
        if (!best) continue;
        auto oa = members_.find(a.owner), ob = members_.find(seeks_[*best].owner);
        if (oa == members_.end() || ob == members_.end()) continue;
        Pairing p{a, oa->second.sub, ob->second.sub, oa->second.client, ob->second.name, seeks_[*best].rating,
                  oa->second.signed_in, ob->second.signed_in};
        const Subscriber *x = a.owner, *y = seeks_[*best].owner;
        remove_seeks_of(x);
        remove_seeks_of(y);
        out.push_back(std::move(p));
        i = size_t(-1);  // the list changed: start again (it is short)
    }
    return out;
}

// Outside the lock: the hub makes the game (an invite game, the seek's owner its
// creator), and each player is told the game and its own seat.
void Lobby::make_games(std::vector<Pairing> pairs) {
    for (Pairing& p : pairs) {
        auto owner = p.owner.lock(), other = p.other.lock();
        const Color owner_color = p.seek.color.value_or(env_.coin() ? WHITE : BLACK);
        json body = {{"v", 1},
                     {"opponent", "invite"},
                     {"color", owner_color == WHITE ? "white" : "black"},
                     {"time_control", p.seek.time_control},
                     {"variant", p.seek.chess960 ? "chess960" : "standard"},
                     {"name", p.seek.name},
                     {"opponent_name", p.other_name},
                     {"casual", !p.seek.rated}};  // P23: a rated seek makes a rated game
        auto created = env_.create_game ? env_.create_game(dump_json(body), p.owner_client, p.owner_account ? &*p.owner_account : nullptr,
                                                           p.other_account ? &*p.other_account : nullptr)
                                        : Answer<CreatedGame>(ProtocolError{"internal", "no games here", 500});
        if (!created) {
            auto err = std::make_shared<const std::string>(error_json(created.error()));
            if (owner) owner->deliver(err);
            if (other) other->deliver(err);
            continue;
        }
        const CreatedGame& g = *created;
        auto tell = [&](const std::shared_ptr<Subscriber>& s, Color c) {
            if (!s) return;
            const auto& token = c == WHITE ? g.white_token : g.black_token;
            s->deliver(message({{"v", 1}, {"t", "paired"}, {"game", g.id}, {"color", c == WHITE ? "white" : "black"},
                                {"seat", token.value_or("")}}));
        };
        tell(owner, owner_color);
        tell(other, ~owner_color);
    }
}

void Lobby::tick() {
    std::vector<Pairing> pairs;
    std::string common;
    std::vector<const Subscriber*> to;
    {
        std::lock_guard lock(mutex_);
        pairs = find_quick_pairs(env_.monotonic_ms());
        if (dirty_) {
            dirty_ = false;
            common = snapshot_common();
            for (const auto& [p, m] : members_) to.push_back(p);
        }
    }
    make_games(std::move(pairs));
    for (const Subscriber* p : to) send_lobby_to(p, common);
}

// --- Games being played ------------------------------------------------------------------

namespace {

// A time control as the quick-pairing buttons write it, "" when it is none of theirs.
std::string quick_speed(const std::string& time_control) {
    auto tc = parse_time_control(time_control);
    if (!tc) return "";
    for (const char* q : QuickTimeControls)
        if (auto qt = parse_time_control(q); qt && qt->to_string() == tc->to_string()) return q;
    return "";
}

}  // namespace

bool Lobby::in_the_list(const Listed& g) const {
    if (started_.size() <= env_.max_games_listed) return true;
    return g.seq >= games_.at(started_[started_.size() - env_.max_games_listed]).seq;
}

void Lobby::forget_games() {
    std::lock_guard lock(mutex_);
    games_.clear();
    started_.clear();
    playing_by_speed_.clear();
    dirty_ = true;
}

void Lobby::on_live_game(const LiveGame& g) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(g.id);
    if (g.over || !g.listed || g.ply == 0) {
        if (it == games_.end()) return;
        if (!it->second.speed.empty() && --playing_by_speed_[it->second.speed] <= 0)
            playing_by_speed_.erase(it->second.speed);
        games_.erase(it);
        std::erase(started_, g.id);
        dirty_ = true;
        return;
    }
    if (it != games_.end()) {
        // A listed game's board moves on (its mini board, at most twice a second for
        // everyone), and a seat claimed by an account after sign-up (issue 28, item 9)
        // brings its name; a game beyond the list only keeps its place.
        LiveGame& kept = it->second.game;
        const bool named = kept.white != g.white || kept.black != g.black || kept.rated != g.rated;
        kept = g;
        if (named || in_the_list(it->second)) dirty_ = true;
        return;
    }
    Listed l{g, next_game_seq_++, quick_speed(g.time_control)};
    if (!l.speed.empty()) ++playing_by_speed_[l.speed];
    games_[g.id] = std::move(l);
    started_.push_back(g.id);
    dirty_ = true;
}

// --- Messages out --------------------------------------------------------------------------

// The part of the `lobby` message that is the same for every member: the seeks and
// the most recently started games.
std::string Lobby::snapshot_common() const {
    const Millis now = env_.monotonic_ms();
    json seeks = json::array(), games = json::array();
    for (const Seek& s : seeks_)
        seeks.push_back({{"id", s.id},
                         {"name", s.name},
                         {"rating", s.rating.rating},
                         {"provisional", s.rating.provisional},
                         {"time_control", s.time_control},
                         {"class", s.rating_class},
                         {"variant", s.chess960 ? "chess960" : "standard"},
                         {"rated", s.rated},
                         {"quick", s.quick},
                         {"color", s.color ? (*s.color == WHITE ? "white" : "black") : "random"},
                         {"rating_min", s.rating_min ? json(*s.rating_min) : json(nullptr)},
                         {"rating_max", s.rating_max ? json(*s.rating_max) : json(nullptr)},
                         {"waiting_ms", std::max<Millis>(0, now - s.created)}});
    const size_t n = std::min(started_.size(), env_.max_games_listed);
    for (size_t i = 0; i < n; ++i) {
        const LiveGame& g = games_.at(started_[started_.size() - 1 - i]).game;
        games.push_back({{"id", g.id},
                         {"white", g.white},
                         {"black", g.black},
                         {"time_control", g.time_control},
                         {"variant", g.variant},
                         {"rated", g.rated},
                         {"ply", g.ply},
                         {"fen", g.fen},
                         {"last_move", g.last_move.empty() ? json(nullptr) : json(g.last_move)}});
    }
    // Issue 28 (9): at each quick-pairing button, how many wait (seeks of that time
    // control, standard chess) and how many games of it are being played.
    json speeds = json::array();
    for (const char* q : QuickTimeControls) {
        int waiting = 0;
        for (const Seek& s : seeks_) waiting += !s.chess960 && quick_speed(s.time_control) == q;
        auto p = playing_by_speed_.find(q);
        speeds.push_back({{"time_control", q}, {"waiting", waiting}, {"playing", p == playing_by_speed_.end() ? 0 : p->second}});
    }
    json j = {{"instance", instance_}, {"seeks", std::move(seeks)}, {"games", std::move(games)},
              {"playing", games_.size()}, {"speeds", std::move(speeds)}};
    std::string text = dump_json(j);
    return text.substr(1, text.size() - 2);  // the fields, without the braces
}

void Lobby::send_lobby_to(const Subscriber* who, const std::string& common) {
    std::shared_ptr<Subscriber> s;
    json mine = json::array();
    {
        std::lock_guard lock(mutex_);
        auto m = members_.find(who);
        if (m == members_.end()) return;
        s = m->second.sub.lock();
        for (const Seek& k : seeks_)
            if (k.owner == who) mine.push_back(k.id);
    }
    if (!s) return;
    s->deliver(std::make_shared<const std::string>(R"({"v":1,"t":"lobby",)" + common + R"(,"mine":)" + dump_json(mine) + "}"));
}

size_t Lobby::seeks() const {
    std::lock_guard lock(mutex_);
    return seeks_.size();
}
size_t Lobby::members() const {
    std::lock_guard lock(mutex_);
    return members_.size();
}
size_t Lobby::games_listed() const {
    std::lock_guard lock(mutex_);
    return std::min(started_.size(), env_.max_games_listed);
}

}  // namespace outpost::server
