// Outpost — the puzzles' routes (puzzle_service.h; docs/protocol.md, "Puzzles").
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/training/puzzle_service.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "server/common/http_answer.h"
#include "server/training/mistakes.h"
#include "server/training/puzzle_rules.h"

namespace outpost::server {
namespace {

using nlohmann::json;

constexpr std::string_view PzPrefix = "/api/v1/puzzles";
constexpr std::size_t PzMaxSkip = 50;        // ids a client may ask not to be given again
constexpr std::size_t PzMaxThemeLength = 40;
constexpr Millis PzThemesFreshMs = 60'000;   // the themes' counts are read again after a minute
constexpr int PzMaxHistory = 200;
constexpr int PzRatingSpread = 100;          // the next puzzle: the player's rating ± this, by lot

HttpResponse pz_refused(const ProtocolError& e) {
    HttpResponse r = error_answer(e);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}
HttpResponse pz_ok(const json& j) {
    HttpResponse r = json_value_answer(200, j);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}
HttpResponse pz_internal(const Error& e) { return pz_refused({"internal", e.message, 500}); }

bool pz_valid_id(std::string_view id) {
    if (id.empty() || id.size() > 32) return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
    });
}

bool pz_valid_theme(std::string_view t) {
    if (t.size() > PzMaxThemeLength) return false;
    return std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

bool pz_valid_game_id(std::string_view id) {
    if (id.empty() || id.size() > 64) return false;
    return std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

json pz_puzzle_json(const PuzzleRecord& r) {
    const training::Puzzle p = from_record(r);
    return json{{"id", p.id},
                {"fen", p.fen},
                {"opponent_move", p.moves[0]},
                {"color", solver_color(p)},
                {"steps", training::solver_moves(p)},
                {"themes", p.themes},
                {"rating", p.rating},
                {"plays", p.nb_plays},
                {"game_url", p.game_url}};
}

json pz_rating_json(const StoredPuzzleRating& r) {
    return json{{"rating", std::lround(r.glicko.rating)},
                {"rd", std::lround(r.glicko.deviation)},
                {"provisional", r.glicko.deviation > 110},
                {"attempts", r.attempts}};
}

// The body's "moves": an array of 1..steps UCI texts (checked against the puzzle later).
Answer<std::vector<std::string>> pz_read_moves(const json& body, bool may_be_empty) {
    if (!body.contains("moves")) {
        if (may_be_empty) return std::vector<std::string>{};
        return bad_request("moves: the solver's moves so far, in UCI");
    }
    const json& m = body["moves"];
    if (!m.is_array() || m.size() > 64) return bad_request("moves: an array of at most 64 UCI moves");
    std::vector<std::string> out;
    for (const json& x : m) {
        if (!x.is_string() || x.get_ref<const std::string&>().size() > 5) return bad_request("moves: UCI moves such as e2e4");
        out.push_back(x.get<std::string>());
    }
    if (out.empty() && !may_be_empty) return bad_request("moves: at least one move");
    return out;
}

std::string pz_join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

}  // namespace

PuzzleService::PuzzleService(PuzzleEnv env, PuzzleStore& store, Hub& hub, Storage* storage)
    : env_(std::move(env)), store_(store),
      random_(env_.seed ? env_.seed : std::random_device{}()) {
    if (storage)
        coach_ = std::make_unique<MistakeCoach>(hub, *storage, env_.mistake_nodes, env_.client_limits, env_.monotonic_ms);
}

PuzzleService::~PuzzleService() = default;

bool PuzzleService::handles(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    if (path == PzPrefix || path.rfind(std::string(PzPrefix) + "/", 0) == 0) return true;
    return path.rfind("/api/v1/games/", 0) == 0 && path.ends_with("/mistakes");
}

void PuzzleService::puzzles_added() {
    std::lock_guard lock(mutex_);
    themes_json_.clear();
}

void PuzzleService::share_limits(SharedLimits* shared) {
    reads_.share(shared, "puzzle_read");
    attempts_.share(shared, "puzzle_attempt");
    if (coach_) coach_->share_limits(shared);
}

bool PuzzleService::limited(RateLimiter& limiter, const HttpRequest& req) {
    return env_.client_limits && !limiter.allow(req.client, env_.monotonic_ms());
}

HttpResponse PuzzleService::handle(const HttpRequest& req) {
    if (!req.origin.empty() && !origin_allowed(req.origin, req.host, env_.allowed_origins))
        return pz_refused({"forbidden_origin", "the puzzle routes are used only from pages of this server", 403});
    if (req.method == "POST" && !is_json_content_type(req.content_type))
        return pz_refused({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
    const auto [path, query] = split_target(req.target);
    if (path.rfind("/api/v1/games/", 0) == 0) {
        std::string id = path.substr(14, path.size() - 14 - 9);
        if (!coach_ || !pz_valid_game_id(id)) return pz_refused({"not_found", "no such game", 404});
        return coach_->try_move(req, id);
    }
    std::string rest = path.size() > PzPrefix.size() ? path.substr(PzPrefix.size() + 1) : "";
    const bool post = req.method == "POST";
    if (!post && req.method != "GET") return pz_refused({"bad_request", "use GET or POST", 405});
    if (rest == "next" || rest == "themes" || rest == "history") {
        if (post) return pz_refused({"bad_request", "use GET", 405});
        if (limited(reads_, req)) return pz_refused({"rate_limited", "too many requests: slow down", 429});
        if (rest == "next") return next(req, query);
        if (rest == "themes") return themes();
        return history(req, query);
    }
    const std::size_t slash = rest.find('/');
    const std::string id = rest.substr(0, slash);
    const std::string action = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (!pz_valid_id(id)) return pz_refused({"not_found", "no such puzzle", 404});
    if (action.empty()) {
        if (post) return pz_refused({"bad_request", "use GET", 405});
        if (limited(reads_, req)) return pz_refused({"rate_limited", "too many requests: slow down", 429});
        return one(req, id);
    }
    if (action != "attempt" && action != "hint") return pz_refused({"not_found", "no such puzzle route", 404});
    if (!post) return pz_refused({"bad_request", "use POST", 405});
    if (limited(attempts_, req)) return pz_refused({"rate_limited", "too many attempts: slow down", 429});
    return action == "attempt" ? attempt(req, id) : give_hint(req, id);
}

HttpResponse PuzzleService::next(const HttpRequest& req, const std::map<std::string, std::string>& query) {
    PuzzleQuery q;
    if (auto t = query.find("theme"); t != query.end()) {
        if (!pz_valid_theme(t->second)) return pz_refused(bad_request("theme: a theme's name, such as fork"));
        q.theme = t->second;
    }
    if (auto s = query.find("skip"); s != query.end()) {
        std::string_view rest = s->second;
        while (!rest.empty() && q.skip.size() < PzMaxSkip) {
            const std::size_t comma = rest.find(',');
            std::string one(rest.substr(0, comma));
            if (pz_valid_id(one)) q.skip.push_back(one);
            if (comma == std::string_view::npos) break;
            rest = rest.substr(comma + 1);
        }
    }
    json rating = nullptr;
    double target = initial_puzzle_rating().glicko.rating;
    if (req.account) {
        q.account = req.account->id;
        auto r = store_.rating(q.account);
        if (!r) return pz_internal(r.error());
        if (*r) {
            target = (*r)->glicko.rating;
            rating = pz_rating_json(**r);
        }
    }
    {
        std::lock_guard lock(mutex_);
        q.from_rating = target + std::uniform_int_distribution<int>(-PzRatingSpread, PzRatingSpread)(random_);
    }
    auto found = store_.next(q);
    if (!found) return pz_internal(found.error());
    if (!*found) return pz_refused({"not_found", q.theme.empty() ? "no puzzle left to give you" : "no puzzle left with that theme", 404});
    return pz_ok(json{{"v", 1}, {"puzzle", pz_puzzle_json(**found)}, {"rating", rating}});
}

HttpResponse PuzzleService::one(const HttpRequest& req, const std::string& id) {
    auto found = store_.puzzle(id);
    if (!found) return pz_internal(found.error());
    if (!*found) return pz_refused({"not_found", "no such puzzle", 404});
    json rating = nullptr;
    if (req.account) {
        auto r = store_.rating(req.account->id);
        if (!r) return pz_internal(r.error());
        if (*r) rating = pz_rating_json(**r);
    }
    return pz_ok(json{{"v", 1}, {"puzzle", pz_puzzle_json(**found)}, {"rating", rating}});
}

HttpResponse PuzzleService::attempt(const HttpRequest& req, const std::string& id) {
    auto body = read_json_object(req.body);
    if (!body) return pz_refused(body.error());
    const auto flag = body->find("give_up");
    if (flag != body->end() && !flag->is_boolean()) return pz_refused(bad_request("give_up: true or false"));
    const bool give_up = flag != body->end() && flag->get<bool>();
    auto moves = pz_read_moves(*body, give_up);
    if (!moves) return pz_refused(moves.error());
    auto found = store_.puzzle(id);
    if (!found) return pz_internal(found.error());
    if (!*found) return pz_refused({"not_found", "no such puzzle", 404});
    const PuzzleRecord& record = **found;
    const training::Puzzle p = from_record(record);
    AttemptCheck check;
    if (!moves->empty()) {
        auto c = check_attempt(p, *moves);
        if (!c) return pz_refused(c.error());
        check = *c;
    }
    if (give_up && check.status == AttemptCheck::CONTINUE) check.status = AttemptCheck::FAILED;
    if (check.status == AttemptCheck::CONTINUE) return pz_ok(json{{"v", 1}, {"status", "continue"}, {"reply", check.reply}});
    const bool solved = check.status == AttemptCheck::SOLVED;
    json out = {{"v", 1},
                {"status", solved ? "solved" : "failed"},
                {"solution", std::vector<std::string>(p.moves.begin() + 1, p.moves.end())},
                {"rated", false},
                {"rating", nullptr}};
    if (check.wrong_step >= 0) out["wrong_step"] = check.wrong_step;
    if (!req.account) return pz_ok(out);
    // The account's attempt ends here: stored, and rated when it is the first.
    const std::int64_t account = req.account->id;
    auto seen = store_.attempted(account, id);
    if (!seen) return pz_internal(seen.error());
    auto stored = store_.rating(account);
    if (!stored) return pz_internal(stored.error());
    const StoredPuzzleRating before = stored->value_or(initial_puzzle_rating());
    const std::int64_t now = env_.wall_ms();
    std::optional<PuzzleRatingChange> change;
    if (!*seen) change = rate_attempt(before, record.glicko, solved, now);
    PuzzleAttempt a;
    a.account = account;
    a.puzzle = id;
    a.at_ms = now;
    a.solved = solved;
    a.moves = pz_join(*moves);
    a.rating_before = before.glicko.rating;
    a.rating_after = change ? change->account.glicko.rating : before.glicko.rating;
    a.puzzle_rating = int(std::lround(record.glicko.rating));
    if (auto r = store_.record(a, change); !r) return pz_internal(r.error());
    const StoredPuzzleRating after = change ? change->account : before;
    json rating = pz_rating_json(after);
    rating["before"] = std::lround(before.glicko.rating);
    rating["diff"] = std::lround(after.glicko.rating) - std::lround(before.glicko.rating);
    out["rated"] = change.has_value();
    out["rating"] = rating;
    return pz_ok(out);
}

HttpResponse PuzzleService::give_hint(const HttpRequest& req, const std::string& id) {
    auto body = read_json_object(req.body);
    if (!body) return pz_refused(body.error());
    auto moves = pz_read_moves(*body, true);
    if (!moves) return pz_refused(moves.error());
    auto found = store_.puzzle(id);
    if (!found) return pz_internal(found.error());
    if (!*found) return pz_refused({"not_found", "no such puzzle", 404});
    const training::Puzzle p = from_record(**found);
    auto h = hint(p, *moves);
    if (!h) return pz_refused(h.error());
    json out = {{"v", 1}, {"from", h->from}, {"to", h->to}, {"rated", false}, {"rating", nullptr}};
    if (!req.account) return pz_ok(out);
    // A hint on the account's first attempt makes it a failed one for the rating.
    const std::int64_t account = req.account->id;
    auto seen = store_.attempted(account, id);
    if (!seen) return pz_internal(seen.error());
    if (*seen) return pz_ok(out);
    auto stored = store_.rating(account);
    if (!stored) return pz_internal(stored.error());
    const StoredPuzzleRating before = stored->value_or(initial_puzzle_rating());
    const std::int64_t now = env_.wall_ms();
    const PuzzleRatingChange change = rate_attempt(before, (*found)->glicko, false, now);
    PuzzleAttempt a;
    a.account = account;
    a.puzzle = id;
    a.at_ms = now;
    a.solved = false;
    a.moves = pz_join(*moves);
    a.rating_before = before.glicko.rating;
    a.rating_after = change.account.glicko.rating;
    a.puzzle_rating = int(std::lround((*found)->glicko.rating));
    if (auto r = store_.record(a, change); !r) return pz_internal(r.error());
    json rating = pz_rating_json(change.account);
    rating["before"] = std::lround(before.glicko.rating);
    rating["diff"] = std::lround(change.account.glicko.rating) - std::lround(before.glicko.rating);
    out["rated"] = true;
    out["rating"] = rating;
    return pz_ok(out);
}

HttpResponse PuzzleService::themes() {
    std::lock_guard lock(mutex_);
    const Millis now = env_.monotonic_ms();
    if (themes_json_.empty() || now - themes_read_ > PzThemesFreshMs) {
        auto t = store_.themes();
        if (!t) return pz_internal(t.error());
        json list = json::array();
        for (const auto& [theme, count] : *t) list.push_back(json{{"theme", theme}, {"count", count}});
        auto total = store_.count();
        if (!total) return pz_internal(total.error());
        themes_json_ = dump_json(json{{"v", 1}, {"themes", list}, {"total", *total}});
        themes_read_ = now;
    }
    HttpResponse r = json_answer(200, themes_json_);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

HttpResponse PuzzleService::history(const HttpRequest& req, const std::map<std::string, std::string>& query) {
    if (!req.account) return pz_refused(not_signed_in());
    int limit = 50;
    std::int64_t before = 0;
    try {
        if (auto l = query.find("limit"); l != query.end()) limit = std::stoi(l->second);
        if (auto b = query.find("before"); b != query.end()) before = std::stoll(b->second);
    } catch (const std::exception&) {
        return pz_refused(bad_request("limit and before are numbers"));
    }
    if (limit < 1 || limit > PzMaxHistory || before < 0) return pz_refused(bad_request("limit: 1-200; before: an attempt's id"));
    auto h = store_.history(req.account->id, limit, before);
    if (!h) return pz_internal(h.error());
    auto r = store_.rating(req.account->id);
    if (!r) return pz_internal(r.error());
    json list = json::array();
    for (const PuzzleAttempt& a : *h)
        list.push_back(json{{"id", a.id},
                            {"puzzle", a.puzzle},
                            {"at", a.at_ms},
                            {"solved", a.solved},
                            {"rated", a.rated},
                            {"rating_before", std::lround(a.rating_before)},
                            {"rating_after", std::lround(a.rating_after)},
                            {"puzzle_rating", a.puzzle_rating}});
    return pz_ok(json{{"v", 1}, {"rating", *r ? pz_rating_json(**r) : json(nullptr)}, {"history", list}});
}

}  // namespace outpost::server
