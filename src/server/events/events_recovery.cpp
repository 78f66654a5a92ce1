// Outpost — tournaments run by the server: the games of the boards (events.h): making a
// round's games in the hub and linking its boards, the results the hub reports, and
// what a restart recovers (games not made, results not stored).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/events/events_detail.h"

namespace outpost::server {

using namespace events_detail;

int EventService::make_games(const std::vector<GameToMake>& games) {
    int linked = 0;
    for (const GameToMake& g : games) {
        auto board_of = [&](Event& e) -> EventBoard* {
            for (EventBoard& b : e.boards)
                if (b.round == g.round && b.board == g.board) return &b;
            return nullptr;
        };
        {
            std::lock_guard lock(mutex_);
            auto found = find(g.event);
            EventBoard* b = found ? board_of(**found) : nullptr;
            // Decided meanwhile (the organiser's result), or already linked: no game to make.
            if (!b || b->game_id != g.game_id || !b->white_token.empty() || !b->result.empty() || !b->note.empty())
                continue;
        }
        auto created = hub_.create_event_game(g.time_control, g.casual, g.white, g.black, g.game_id);
        std::lock_guard lock(mutex_);
        auto found = find(g.event);
        EventBoard* b = found ? board_of(**found) : nullptr;
        if (!b || b->game_id != g.game_id) continue;
        EventBoard next = *b;
        if (!created) {
            next.note = "the game could not be made: " + created.error().message;
            next.game_id.clear();
        } else {
            next.white_token = created->white_token.value_or("");
            next.black_token = created->black_token.value_or("");
        }
        if (!save_board_game(g.event, next)) continue;  // stored as before: the next start tries again
        if (!created) by_game_.erase(g.game_id);
        else ++linked;
        *b = std::move(next);
    }
    return linked;
}

int EventService::recover_games() {
    std::vector<GameToMake> games;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, e] : events_) {
            if (!e.online) continue;  // over the board: the organiser types the results
            Event next = e;
            bool chosen = false;
            std::vector<GameToMake> mine;
            for (EventBoard& b : next.boards) {
                if (b.black == 0 || !b.result.empty() || !b.note.empty() || !b.white_token.empty()) continue;
                const EventPlayer* w = nullptr;
                const EventPlayer* k = nullptr;
                for (const EventPlayer& p : next.players) {
                    if (p.start_rank == b.white) w = &p;
                    if (p.start_rank == b.black) k = &p;
                }
                if (!w || !k) continue;
                // A round saved without ids (by an older version) gets them now.
                if (b.game_id.empty()) {
                    b.game_id = event_game_id();
                    chosen = true;
                }
                mine.push_back({id, b.round, b.board, b.game_id, next.time_control, !next.rated,
                                Account{w->account, w->name}, Account{k->account, k->name}});
            }
            if (chosen) {
                if (!save(next)) continue;
                e = std::move(next);
            }
            for (const GameToMake& g : mine) {
                by_game_[g.game_id] = {id, {g.round, g.board}};
                games.push_back(g);
            }
        }
    }
    return make_games(games);
}

void EventService::on_game_over(const LiveGame& g) {
    if (!g.over) return;
    std::lock_guard lock(mutex_);
    auto it = by_game_.find(g.id);
    if (it == by_game_.end()) return;
    auto found = find(it->second.first);
    if (!found) return;
    Event next = **found;
    for (EventBoard& b : next.boards) {
        if (b.round != it->second.second.first || b.board != it->second.second.second) continue;
        if (!b.result.empty() || !b.note.empty()) return;  // the organiser's result stands
        b.result = result_of(g.outcome);
        if (b.result.empty()) b.note = "aborted";  // the organiser decides (docs/events.md)
        // R14 in a Swiss, as lichess runs one: who lost for want of a first move is
        // withdrawn from the next round on (and may join again); a round-robin keeps
        // its schedule.
        EventPlayer* absent = nullptr;
        if (!next.round_robin() && g.outcome.reason == Status::FORFEIT && g.outcome.winner) {
            const int rank = *g.outcome.winner == WHITE ? b.black : b.white;
            for (EventPlayer& p : next.players)
                if (p.start_rank == rank && p.withdrawn_from == 0) absent = &p;
        }
        if (absent) {
            absent->withdrawn_from = b.round + 1;
            if (save(next)) **found = std::move(next);
        } else if (save_result(next.id, b)) {
            **found = std::move(next);
        }
        return;
    }
}

int EventService::recover_results() {
    std::vector<std::string> waiting;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, e] : events_)
            for (const EventBoard& b : e.boards)
                if (!b.game_id.empty() && !b.white_token.empty() && b.result.empty() && b.note.empty())
                    waiting.push_back(b.game_id);
    }
    // The hub outside the lock (it calls on_game_over under its own).
    int recovered = 0;
    for (const std::string& game : waiting) {
        auto g = hub_.game_report(game);
        if (!g || !g->over) continue;
        on_game_over(*g);
        ++recovered;
    }
    return recovered;
}

}  // namespace outpost::server
