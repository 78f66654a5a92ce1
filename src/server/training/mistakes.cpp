// Outpost — learn from your mistakes (mistakes.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/training/mistakes.h"

#include <nlohmann/json.hpp>

#include "chess/san.h"
#include "chess/uci.h"
#include "engine/analysis.h"
#include "engine/engine.h"
#include "server/common/http_answer.h"

namespace outpost::server {
namespace {

using nlohmann::json;

json mistake_eval_json(const engine::Eval& e) {
    if (e.checkmated) return {{"mate", 0}, {"winner", e.mate > 0 ? "white" : "black"}};
    if (e.mate) return {{"mate", e.mate}};
    return {{"cp", e.cp}};
}

HttpResponse mistake_refused(const ProtocolError& e) { return error_answer(e); }

}  // namespace

MistakeCoach::MistakeCoach(Hub& hub, Storage& storage, std::uint64_t nodes, bool client_limits,
                           std::function<Millis()> monotonic_ms)
    : hub_(hub), storage_(storage), nodes_(nodes), client_limits_(client_limits), now_(std::move(monotonic_ms)) {}

MistakeCoach::~MistakeCoach() = default;

HttpResponse MistakeCoach::try_move(const HttpRequest& req, const std::string& game_id) {
    if (req.method != "POST") return mistake_refused({"bad_request", "use POST", 405});
    if (!req.account) return mistake_refused(not_signed_in());
    auto body = read_json_object(req.body);
    if (!body) return mistake_refused(body.error());
    const json& b = *body;
    if (!b.contains("ply") || !b["ply"].is_number_integer()) return mistake_refused(bad_request("ply: a move number of the game (1 = the first move)"));
    if (!b.contains("uci") || !b["uci"].is_string()) return mistake_refused(bad_request("uci: the move tried, in UCI"));
    const std::int64_t ply = b["ply"].get<std::int64_t>();
    const std::string uci = b["uci"].get<std::string>();
    if (uci.size() < 4 || uci.size() > 5) return mistake_refused(bad_request("uci: not a UCI move"));

    auto stored = storage_.load_game(game_id);
    if (!stored) return mistake_refused({"internal", stored.error().message, 500});
    if (!*stored) return mistake_refused({"not_found", "no such game", 404});
    const StoredGame& g = **stored;
    auto game = hub_.game_moves(game_id);
    if (!game) return mistake_refused(game.error());
    if (!game->over) return mistake_refused(not_allowed("the game is not over yet"));
    if (ply < 1 || ply > std::int64_t(game->moves.size()))
        return mistake_refused(bad_request("ply: the game has " + std::to_string(game->moves.size()) + " moves"));
    Position before = game->start;
    for (std::int64_t i = 0; i + 1 < ply; ++i) before.do_move(game->moves[std::size_t(i)]);
    const std::int64_t mover = before.side_to_move() == WHITE ? g.white_account : g.black_account;
    if (mover != req.account->id) return mistake_refused({"not_your_seat", "that move was not yours: learn from your own games", 403});
    auto tried = move_from_uci(before, uci);
    if (!tried) return mistake_refused({"illegal_move", "illegal move '" + uci + "' in this position", 400});

    if (client_limits_) {
        const Millis now = now_();
        if (!per_address_.allow(req.client, now) || !per_account_.allow("account:" + std::to_string(req.account->id), now))
            return mistake_refused({"rate_limited", "too many tries: wait a few seconds", 429});
    }
    std::unique_lock lock(engine_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return mistake_refused({"rate_limited", "the engine is busy with another player's move: try again", 429});
    if (!engine_) engine_ = std::make_unique<engine::Engine>();
    engine::AnalysisSettings settings;
    settings.nodes = nodes_;
    settings.hash_mb = 16;
    settings.line_plies = 8;
    const Move moves[1] = {*tried};
    auto a = engine::analyse_game(*engine_, before, moves, settings);
    lock.unlock();
    if (!a) return mistake_refused({"internal", a.error().message, 500});
    const engine::MoveAnalysis& m = a->moves[0];
    const engine::PositionAnalysis& best = a->positions[0];
    const bool accepted = m.was_best || m.mark == engine::Mark::NONE;
    json line_uci = json::array(), line_san = json::array();
    Position p = before;
    for (Move lm : best.line) {
        if (!p.is_legal(lm)) break;
        line_uci.push_back(move_to_uci(p, lm));
        line_san.push_back(move_to_san(p, lm));
        p.do_move(lm);
    }
    json out = {{"v", 1},
                {"game", game_id},
                {"ply", ply},
                {"uci", move_to_uci(before, *tried)},
                {"san", move_to_san(before, *tried)},
                {"accepted", accepted},
                {"eval", mistake_eval_json(m.eval_after)},
                {"best_eval", mistake_eval_json(best.eval)},
                {"best", best.line.empty() ? json(nullptr) : json{{"uci", line_uci.empty() ? "" : line_uci[0]},
                                                                   {"san", line_san.empty() ? "" : line_san[0]}}},
                {"line", line_uci},
                {"line_san", line_san}};
    return json_value_answer(200, out);
}

}  // namespace outpost::server
