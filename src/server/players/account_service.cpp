// Outpost — accounts over HTTP (account_service.h; docs/protocol.md, "Accounts").
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/players/account_service.h"
#include "server/common/http_answer.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "chess/clock.h"
#include "server/accounts/ratings.h"

namespace outpost::server {
namespace {

using nlohmann::json;

constexpr const char* AccountPrefix = "/api/v1/account";
constexpr const char* PlayersPrefix = "/api/v1/players/";
constexpr std::size_t MaxField = 1024;  // a password's limit (accounts.h); names are shorter
constexpr int MaxGamesScanned = 10'000;  // a profile reads at most this many of an account's games
constexpr int MaxHistoryPoints = 2'000;  // the rating chart's most recent points


// The one answer for an unknown name and a wrong password (accounts.h: as slow, too).
ProtocolError wrong_credentials() { return {"wrong_credentials", "wrong username or password", 401}; }

// The string fields of a JSON object body; bad_request names what is wrong.
Answer<std::map<std::string, std::string>> read_fields(std::string_view body, std::initializer_list<const char*> names) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return ProtocolError{"bad_request", "the body must be a JSON object", 400};
    std::map<std::string, std::string> out;
    for (const char* name : names) {
        auto it = j.find(name);
        if (it == j.end() || !it->is_string())
            return ProtocolError{"bad_request", std::string("field '") + name + "' must be a string", 400};
        if (it->get_ref<const std::string&>().size() > MaxField)
            return ProtocolError{"bad_request", std::string("field '") + name + "' is too long", 400};
        out[name] = it->get<std::string>();
    }
    return out;
}

// `admin`: the page shows the admin page's link (SPEC D9; the admin routes check for themselves).
json account_json(const Account& a) { return json{{"name", a.name}, {"created_ms", a.created_ms}, {"admin", a.admin}}; }

bool is_post(const HttpRequest& req) { return req.method == "POST"; }

std::string path_of(const HttpRequest& req) { return split_target(req.target).first; }

bool is_claim_path(const std::string& path) {
    return path.rfind("/api/v1/games/", 0) == 0 && path.ends_with("/claim") && path.size() > 20;
}

// The outcome of a game for the account's colour.
const char* outcome_for(const StoredGame& g, Color c) {
    if (g.result == "1/2-1/2") return "draw";
    if (g.result == "1-0") return c == WHITE ? "win" : "loss";
    if (g.result == "0-1") return c == BLACK ? "win" : "loss";
    return "none";  // in progress, aborted
}

// P23: every rating class, each {rating, rd, provisional, games, last}; the RD as it is
// now (widened for the time since the last rated game, accounts/ratings.h).
json ratings_by_class(const std::vector<StoredRating>& stored, std::int64_t now_ms) {
    json out = json::object();
    for (int c = 0; c < int(club::RatingClass::RATING_CLASS_NB); ++c) {
        const std::string cls(club::rating_class_name(club::RatingClass(c)));
        StoredRating r = initial_rating(cls);
        for (const StoredRating& s : stored)
            if (s.rating_class == cls) r = s;
        r.deviation = rating_at(r, now_ms).deviation;
        out[cls] = {{"rating", std::lround(r.rating)}, {"rd", std::lround(r.deviation)}, {"provisional", is_provisional(r)},
                    {"games", r.games}, {"last", r.last_ms ? json(r.last_ms) : json(nullptr)}};
    }
    return out;
}

std::string class_of(const StoredGame& g) {
    auto tc = parse_time_control(g.time_control);
    return tc ? std::string(time_class_name(tc->classify())) : "unlimited";
}

}  // namespace

AccountService::AccountService(Options options, AccountStore& store, Hub& hub, Storage* storage,
                               std::function<std::int64_t()> wall_ms, std::function<Millis()> monotonic_ms)
    : options_(std::move(options)), store_(store), hub_(hub), storage_(storage), wall_ms_(std::move(wall_ms)),
      monotonic_ms_(std::move(monotonic_ms)), attempts_(options_.attempts_per_second, options_.attempts_burst),
      account_attempts_(options_.account_attempts) {
    for (int i = 0; i < std::max(1, options_.workers); ++i) threads_.emplace_back(&AccountService::work, this);
}

AccountService::~AccountService() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

bool AccountService::handles(const HttpRequest& req) {
    const std::string path = path_of(req);
    return path == AccountPrefix || path.rfind(std::string(AccountPrefix) + "/", 0) == 0 ||
           path.rfind(PlayersPrefix, 0) == 0 || is_claim_path(path);
}

bool AccountService::hashes(const HttpRequest& req) {
    if (!is_post(req)) return false;
    const std::string path = path_of(req);
    return path == "/api/v1/account/signup" || path == "/api/v1/account/signin" || path == "/api/v1/account/password";
}

namespace {
// The key of the account a sign-in or a password change tries (AttemptGuard), "" for
// none (a body that does not read: the route answers it).
std::string attempt_key(const HttpRequest& req, const std::string& path) {
    if (path == "/api/v1/account/password") return req.account ? "id:" + std::to_string(req.account->id) : "";
    if (path != "/api/v1/account/signin") return "";
    json j = json::parse(req.body, nullptr, false);
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) return "";
    const std::string& name = j["name"].get_ref<const std::string&>();
    return name.size() > MaxField ? "" : "name:" + username_key(name);
}

// The answers of the limits on attempts: per address, and per account (`wait` ms to go).
HttpResponse too_many_attempts() {
    HttpResponse r = error_answer({"rate_limited", "too many sign-in attempts from this address; wait a minute", 429});
    r.headers.emplace_back("Retry-After", "60");
    return r;
}
std::optional<HttpResponse> wait_answer(Millis wait) {
    if (wait <= 0) return std::nullopt;
    const Millis seconds = (wait + 999) / 1000;
    HttpResponse r = error_answer({"rate_limited",
                                   "too many wrong passwords for this account; try again in " + std::to_string(seconds) +
                                       " s",
                                   429});
    r.headers.emplace_back("Retry-After", std::to_string(seconds));
    return r;
}
}  // namespace

std::optional<HttpResponse> AccountService::submit(HttpRequest req, std::function<void(HttpResponse)> done) {
    // Cheap refusals first, without using the pool.
    if (auto refused = refuse_cross_site(req)) return refused;
    const std::string path = path_of(req);
    // Issue 25: changing the password is guessing it too: the same limits.
    if (options_.client_limits && !attempts_.allow(req.client, monotonic_ms_())) return too_many_attempts();
    if (auto refused = refuse_account_attempt(req, path)) return refused;
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= options_.max_queue) {
        HttpResponse r = error_answer({"rate_limited", "the server is busy signing players in; try again in a few seconds", 503});
        r.headers.emplace_back("Retry-After", "2");
        return r;
    }
    queue_.push_back(Job{std::move(req), std::move(done)});
    wake_.notify_one();
    return std::nullopt;
}

std::optional<HttpResponse> AccountService::refuse_account_attempt(const HttpRequest& req, const std::string& path) {
    const std::string key = attempt_key(req, path);
    if (key.empty()) return std::nullopt;
    // The owner, signed in on this browser, is never the one slowed down.
    if (path == "/api/v1/account/signin" && req.account && "name:" + username_key(req.account->name) == key)
        return std::nullopt;
    return wait_answer(account_attempts_.wait_ms(key, monotonic_ms_()));
}

std::optional<HttpResponse> AccountService::refuse_shared(const HttpRequest& req) {
    if (!options_.shared || !options_.client_limits || !hashes(req)) return std::nullopt;
    // Redis away (an error): this node's own limits, checked in submit, alone.
    auto allowed = options_.shared->take("auth", req.client, options_.attempts_per_second, options_.attempts_burst);
    if (allowed && !*allowed) return too_many_attempts();
    const std::string path = path_of(req);
    const std::string key = attempt_key(req, path);
    if (key.empty() || (path == "/api/v1/account/signin" && req.account && "name:" + username_key(req.account->name) == key))
        return std::nullopt;
    auto wait = options_.shared->attempt_wait(key);
    return wait ? wait_answer(*wait) : std::nullopt;
}

void AccountService::attempt_failed(const std::string& key) {
    account_attempts_.failed(key, monotonic_ms_());
    if (options_.shared) (void)options_.shared->attempt_failed(key, options_.account_attempts);
}

void AccountService::attempt_succeeded(const std::string& key) {
    account_attempts_.succeeded(key);
    if (options_.shared) (void)options_.shared->attempt_succeeded(key);
}

void AccountService::work() {
    for (;;) {
        Job job{HttpRequest{"", "", ""}, nullptr};
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
            ++running_;
        }
        HttpResponse r;
        try {
            auto refused = refuse_shared(job.req);
            r = refused ? std::move(*refused) : handle(job.req);
        } catch (const std::exception& e) {
            r = error_answer({"internal", e.what(), 500});
        }
        {
            std::lock_guard lock(mutex_);
            --running_;
        }
        job.done(std::move(r));
    }
}

std::size_t AccountService::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

int AccountService::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

std::optional<HttpResponse> AccountService::refuse_cross_site(const HttpRequest& req) const {
    if (!is_post(req)) return std::nullopt;
    if (!is_json_content_type(req.content_type) && !req.content_type.empty())
        return error_answer({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
    if (!req.origin.empty() && !origin_allowed(req.origin, req.host, options_.allowed_origins))
        return error_answer({"forbidden_origin", "accounts are used only from pages of this server", 403});
    return std::nullopt;
}

HttpResponse AccountService::signed_in(const Account& a, const std::string& token, bool secure, int status) {
    HttpResponse r = json_answer(status, json{{"v", 1}, {"account", account_json(a)}}.dump());
    r.headers.emplace_back("Set-Cookie", session_cookie(token, secure));
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

HttpResponse AccountService::handle(const HttpRequest& req) {
    if (auto refused = refuse_cross_site(req)) return *refused;
    const auto [path, query] = split_target(req.target);
    if (path.rfind(PlayersPrefix, 0) == 0) {
        if (req.method != "GET" && req.method != "HEAD") return error_answer({"bad_request", "use GET", 405});
        std::string rest = path.substr(std::string_view(PlayersPrefix).size());
        const bool list = rest.ends_with("/games"), rating = rest.ends_with("/ratings");
        if (list) rest.resize(rest.size() - 6);
        if (rating) rest.resize(rest.size() - 8);
        if (!check_username(rest)) return error_answer({"not_found", "no such player", 404});
        return list ? games(rest, query) : rating ? ratings(rest) : profile(rest);
    }
    if (is_claim_path(path)) {
        if (!is_post(req)) return error_answer({"bad_request", "use POST", 405});
        const std::string id = path.substr(14, path.size() - 14 - 6);
        return claim(req, id);
    }
    if (path == AccountPrefix) {
        if (req.method != "GET" && req.method != "HEAD") return error_answer({"bad_request", "use GET", 405});
        return who_am_i(req);
    }
    if (!is_post(req)) return error_answer({"bad_request", "use POST", 405});
    if (path == "/api/v1/account/signup") return sign_up(req);
    if (path == "/api/v1/account/signin") return sign_in(req);
    if (path == "/api/v1/account/signout") return sign_out(req, false);
    if (path == "/api/v1/account/signout-all") return sign_out(req, true);
    if (path == "/api/v1/account/password") return change_password(req);
    return error_answer({"not_found", "no API endpoint " + path.substr(0, 100), 404});
}

HttpResponse AccountService::sign_up(const HttpRequest& req) {
    auto f = read_fields(req.body, {"name", "password"});
    if (!f) return error_answer(f.error());
    const std::string& name = f->at("name");
    const std::string& password = f->at("password");
    if (auto ok = check_username(name); !ok) return error_answer({"bad_username", ok.error().message, 400});
    if (auto ok = check_password(password, name); !ok) return error_answer({"bad_password", ok.error().message, 400});
    auto a = store_.create(name, password, false, wall_ms_());
    if (!a) {
        if (a.error().message.find("is taken") != std::string::npos)
            return error_answer({"name_taken", "the username '" + name + "' is taken", 409});
        return error_answer({"internal", a.error().message, 500});
    }
    // The browser may have held another account's session: it ends here.
    if (!req.session_token.empty()) (void)store_.end_session(req.session_token);
    auto token = store_.start_session(a->id, wall_ms_());
    if (!token) return error_answer({"internal", token.error().message, 500});
    return signed_in(*a, *token, req.secure, 201);
}

HttpResponse AccountService::sign_in(const HttpRequest& req) {
    auto f = read_fields(req.body, {"name", "password"});
    if (!f) return error_answer(f.error());
    auto a = store_.authenticate(f->at("name"), f->at("password"));
    const std::string key = "name:" + username_key(f->at("name"));
    if (!a) {
        if (a.error().message == "account disabled")
            return error_answer({"account_disabled", "this account is disabled; ask the server's administrator", 403});
        if (a.error().message == "wrong username or password") {
            attempt_failed(key);
            return error_answer(wrong_credentials());
        }
        return error_answer({"internal", a.error().message, 500});
    }
    attempt_succeeded(key);
    // Never the session the browser came with (no session fixation): that one ends,
    // and a new token is made.
    if (!req.session_token.empty()) (void)store_.end_session(req.session_token);
    if (auto old = session_token_from_cookies(req.cookie)) (void)store_.end_session(*old);
    auto token = store_.start_session(a->id, wall_ms_());
    if (!token) return error_answer({"internal", token.error().message, 500});
    return signed_in(*a, *token, req.secure, 200);
}

HttpResponse AccountService::sign_out(const HttpRequest& req, bool everywhere) {
    if (everywhere) {
        if (!req.account) return error_answer(not_signed_in());
        auto n = store_.end_all_sessions(req.account->id);
        if (!n) return error_answer({"internal", n.error().message, 500});
        if (options_.end_sessions) options_.end_sessions({req.account->id, "", "", "signed out everywhere"});
        HttpResponse r = json_answer(200, json{{"v", 1}, {"ended", *n}}.dump());
        r.headers.emplace_back("Set-Cookie", expired_session_cookie(req.secure));
        return r;
    }
    // Signing out always succeeds: the cookie goes, the session (if any) ends.
    if (auto token = session_token_from_cookies(req.cookie)) {
        (void)store_.end_session(*token);
        if (options_.end_sessions) options_.end_sessions({0, *token, "", "signed out"});
    }
    HttpResponse r = json_answer(200, R"({"v":1})");
    r.headers.emplace_back("Set-Cookie", expired_session_cookie(req.secure));
    return r;
}

HttpResponse AccountService::change_password(const HttpRequest& req) {
    if (!req.account) return error_answer(not_signed_in());
    auto f = read_fields(req.body, {"old", "new"});
    if (!f) return error_answer(f.error());
    if (auto ok = check_password(f->at("new"), req.account->name); !ok)
        return error_answer({"bad_password", ok.error().message, 400});
    auto done = store_.change_password(req.account->id, f->at("old"), f->at("new"), req.session_token);
    const std::string key = "id:" + std::to_string(req.account->id);
    if (!done) {
        if (done.error().message == "the current password is wrong") {
            attempt_failed(key);
            return error_answer({"wrong_credentials", "the current password is wrong", 401});
        }
        return error_answer({"internal", done.error().message, 500});
    }
    attempt_succeeded(key);
    // The other sessions ended in the store; their connections close now (issue 25).
    if (options_.end_sessions) options_.end_sessions({req.account->id, "", req.session_token, "password changed"});
    return json_answer(200, R"({"v":1})");
}

HttpResponse AccountService::who_am_i(const HttpRequest& req) {
    HttpResponse r = json_answer(200, json{{"v", 1}, {"account", req.account ? account_json(*req.account) : json()}}.dump());
    r.headers.emplace_back("Cache-Control", "no-store");
    // The session slides (accounts.h); so does the cookie's lifetime in the browser.
    if (req.account && !req.session_token.empty())
        r.headers.emplace_back("Set-Cookie", session_cookie(req.session_token, req.secure));
    return r;
}

HttpResponse AccountService::claim(const HttpRequest& req, const std::string& game_id) {
    if (!req.account) return error_answer(not_signed_in());
    auto f = read_fields(req.body, {"seat"});
    if (!f) return error_answer(f.error());
    auto done = hub_.claim_seat(game_id, f->at("seat"), *req.account);
    if (!done) return error_answer(done.error());
    return json_answer(200, *done);
}

Result<AccountService::PlayerGames, HttpResponse> AccountService::player_games(const std::string& name) {
    auto found = store_.find(name);
    if (!found) return error_answer({"internal", found.error().message, 500});
    if (!*found) return error_answer({"not_found", "no such player", 404});
    auto games = storage_ ? storage_->games_of_account((*found)->id, MaxGamesScanned)
                          : Result<std::vector<StoredSummary>>(make_error("no storage"));
    if (!games) return error_answer({"internal", games.error().message, 500});
    return PlayerGames{**found, std::move(*games)};
}

HttpResponse AccountService::profile(const std::string& name) {
    auto player = player_games(name);
    if (!player) return player.error();
    const Account& a = player->account;
    const std::vector<StoredSummary>& games = player->games;
    // Results per time-control class, of finished games.
    json per_class = json::object();
    int total = 0;
    for (const StoredSummary& s : games) {
        const StoredGame& g = s.game;
        const Color c = g.white_account == a.id ? WHITE : BLACK;
        const std::string outcome = outcome_for(g, c);
        if (outcome == "none") continue;
        json& row = per_class[class_of(g)];
        if (row.is_null()) row = json{{"games", 0}, {"wins", 0}, {"draws", 0}, {"losses", 0}};
        row["games"] = row["games"].get<int>() + 1;
        const char* key = outcome == "win" ? "wins" : outcome == "draw" ? "draws" : "losses";
        row[key] = row[key].get<int>() + 1;
        ++total;
    }
    json body{{"v", 1},
              {"player", {{"name", a.name}, {"created_ms", a.created_ms}, {"disabled", a.disabled}}},
              {"results", per_class},
              {"finished", total},
              {"games", int(games.size())},
              {"ratings", nullptr}};
    // P23: the rating per class (null where the store keeps none).
    if (storage_)
        if (auto rs = storage_->ratings_of(a.id)) body["ratings"] = ratings_by_class(*rs, wall_ms_());
    return json_answer(200, body.dump());
}

// P23: the ratings per class, with every class (a class not played yet: the starting
// rating, provisional, 0 games), and the history points for the chart.
HttpResponse AccountService::ratings(const std::string& name) {
    auto found = store_.find(name);
    if (!found) return error_answer({"internal", found.error().message, 500});
    if (!*found) return error_answer({"not_found", "no such player", 404});
    if (!storage_) return error_answer({"not_found", "this server keeps no ratings", 404});
    auto rs = storage_->ratings_of((*found)->id);
    if (!rs) return error_answer({"internal", rs.error().message, 500});
    auto points = storage_->rating_history((*found)->id, MaxHistoryPoints);
    if (!points) return error_answer({"internal", points.error().message, 500});
    json history = json::array();
    for (const RatingPoint& p : *points)
        history.push_back({{"class", p.rating_class}, {"game", p.game_id}, {"at", p.at_ms}, {"rating", std::lround(p.rating)},
                           {"rd", std::lround(p.deviation)}, {"diff", p.diff}});
    json body{{"v", 1}, {"player", (*found)->name}, {"ratings", ratings_by_class(*rs, wall_ms_())}, {"history", history}};
    return json_answer(200, body.dump());
}

HttpResponse AccountService::games(const std::string& name, const std::map<std::string, std::string>& query) {
    auto get = [&](const char* k) { return query.count(k) ? query.at(k) : std::string(); };
    const std::string result = get("result"), tclass = get("class"), color = get("color");
    if (!result.empty() && result != "win" && result != "draw" && result != "loss" && result != "none")
        return error_answer({"bad_request", "result must be win, draw, loss or none", 400});
    if (!color.empty() && color != "white" && color != "black")
        return error_answer({"bad_request", "color must be white or black", 400});
    static const char* const Classes[] = {"bullet", "blitz", "rapid", "standard", "correspondence", "unlimited"};
    if (!tclass.empty() && std::find(std::begin(Classes), std::end(Classes), tclass) == std::end(Classes))
        return error_answer({"bad_request", "class must be one of bullet, blitz, rapid, standard, correspondence, unlimited", 400});
    int limit = 50, offset = 0;
    try {
        if (!get("limit").empty()) limit = std::stoi(get("limit"));
        if (!get("offset").empty()) offset = std::stoi(get("offset"));
    } catch (const std::exception&) {
        return error_answer({"bad_request", "limit and offset must be whole numbers", 400});
    }
    if (limit < 1 || limit > 200 || offset < 0 || offset > MaxGamesScanned)
        return error_answer({"bad_request", "limit must be 1-200 and offset 0-10000", 400});

    auto player = player_games(name);
    if (!player) return player.error();
    const Account& a = player->account;
    const std::vector<StoredSummary>& games = player->games;
    json list = json::array();
    int matched = 0;
    for (const StoredSummary& s : games) {
        const StoredGame& g = s.game;
        const Color c = g.white_account == a.id ? WHITE : BLACK;
        const std::string outcome = outcome_for(g, c);
        const std::string cls = class_of(g);
        if (!result.empty() && outcome != result) continue;
        if (!color.empty() && color != (c == WHITE ? "white" : "black")) continue;
        if (!tclass.empty() && cls != tclass) continue;
        if (matched++ < offset || int(list.size()) >= limit) continue;
        list.push_back(json{{"id", g.id},
                            {"white", g.white_name},
                            {"black", g.black_name},
                            {"color", c == WHITE ? "white" : "black"},
                            {"opponent", c == WHITE ? g.black_name : g.white_name},
                            {"opponent_kind", c == WHITE ? g.black_kind : g.white_kind},
                            {"status", g.status},
                            {"result", g.result},
                            {"outcome", outcome},
                            {"time_control", g.time_control},
                            {"class", cls},
                            {"variant", g.variant},
                            {"casual", g.casual},
                            {"plies", s.moves},
                            {"created", g.created_ms},
                            {"updated", g.updated_ms}});
    }
    return json_answer(200, json{{"v", 1}, {"games", list}, {"total", matched}}.dump());
}

}  // namespace outpost::server
