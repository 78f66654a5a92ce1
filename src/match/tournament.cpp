// Outpost — a match or round-robin tournament of UCI engines.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/tournament.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include "chess/chess960.h"
#include "match/pgn_writer.h"

namespace outpost::match {

namespace {

constexpr int MinSprtGames = 10;

std::string fixed(double v, int decimals) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string basename_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<ScheduledGame> make_schedule(const MatchConfig& cfg) {
    const int n = int(cfg.engines.size());
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (cfg.pairing == Pairing::ROUND_ROBIN || i == 0) pairs.emplace_back(i, j);

    std::vector<ScheduledGame> games;
    std::vector<int> played(pairs.size(), 0);      // games of each pair so far: colours alternate
    std::vector<int> encounter(pairs.size(), -1);  // the pair's current encounter
    int encounters = 0;
    for (int round = 1; round <= cfg.rounds; ++round) {
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            for (int g = 0; g < cfg.games; ++g) {
                const int k = played[p]++;
                if (k % cfg.repeat == 0) encounter[p] = encounters++;
                ScheduledGame s;
                s.number = int(games.size()) + 1;
                s.round = round;
                s.first = pairs[p].first;
                s.second = pairs[p].second;
                s.white = k % 2 == 0 ? s.first : s.second;
                s.black = k % 2 == 0 ? s.second : s.first;
                s.encounter = encounter[p];
                games.push_back(s);
            }
        }
    }
    return games;
}

Tournament::Tournament(MatchConfig cfg, std::ostream& out, std::ostream& err, std::atomic<bool>& stop)
    : cfg_(std::move(cfg)), out_(out), err_(err), stop_(stop) {}

PairResult& Tournament::pair_of(const ScheduledGame& job) {
    for (auto& p : summary_.pairs)
        if (p.first == job.first && p.second == job.second) return p;
    summary_.pairs.push_back({job.first, job.second, {}, {}});
    return summary_.pairs.back();
}

std::string Tournament::sprt_line(const PairResult& p, double* llr_out) const {
    const SprtConfig& s = *cfg_.sprt;
    // Paired games (-repeat 2) are judged by pairs: their variance is the honest one.
    const bool paired = cfg_.repeat == 2;
    const double llr = paired ? sprt_llr(p.pairs, s.elo0, s.elo1) : sprt_llr(p.games, s.elo0, s.elo1);
    if (llr_out) *llr_out = llr;
    const double bound = llr >= 0 ? s.upper_bound() : -s.lower_bound();
    return "SPRT: llr " + fixed(llr, 3) + " (" + fixed(100.0 * std::abs(llr) / bound, 1) + "%), lbound " +
           fixed(s.lower_bound(), 2) + ", ubound " + fixed(s.upper_bound(), 2) +
           (paired ? " (pentanomial)" : " (trinomial)");
}

void Tournament::print_pair(const PairResult& p) {
    const Trinomial& t = p.games;
    out_ << "Score of " << names_[p.first] << " vs " << names_[p.second] << ": " << t.wins << " - " << t.losses << " - "
         << t.draws << "  [" << fixed(t.score(), 3) << "] " << t.games() << "\n";
}

void Tournament::report(const ScheduledGame& job, const PlayedGame& rec) {
    std::lock_guard lock(mutex_);
    ++summary_.games_played;
    out_ << "Finished game " << job.number << " (" << names_[job.white] << " vs " << names_[job.black]
         << "): " << result_string(rec.outcome) << " {" << rec.reason << "}\n";

    if (!cfg_.pgn_out.empty()) {
        std::ofstream pgn(cfg_.pgn_out, std::ios::app);
        PgnContext ctx{cfg_.event, cfg_.site, std::to_string(job.round)};
        pgn << write_played_game(rec, ctx);
        if (!pgn) err_ << "outpost match: cannot write to '" << cfg_.pgn_out << "'\n";
    }

    PairResult& p = pair_of(job);
    const Color first_colour = job.white == job.first ? WHITE : BLACK;
    const double points = score_for(rec.outcome, first_colour);
    if (points == 1.0)
        ++p.games.wins;
    else if (points == 0.0)
        ++p.games.losses;
    else
        ++p.games.draws;
    for (int idx : {job.white, job.black}) {
        const double pts = score_for(rec.outcome, idx == job.white ? WHITE : BLACK);
        Trinomial& t = per_engine_[idx];
        (pts == 1.0 ? t.wins : pts == 0.0 ? t.losses : t.draws)++;
    }
    if (cfg_.repeat == 2) {
        if (++encounter_games_[job.encounter] == 2)
            p.pairs.add_pair(encounter_points_[job.encounter], points);
        else
            encounter_points_[job.encounter] = points;
    }
    print_pair(p);

    if (cfg_.sprt) {
        double llr = 0;
        out_ << sprt_line(p, &llr) << "\n";
        // The LLR is the normal approximation of the GSPRT: on a handful of one-sided
        // results (whose variance is only the regularisation's) it overstates the
        // evidence, so no verdict is given on fewer than MinSprtGames games.
        const SprtVerdict v = p.games.games() >= MinSprtGames ? sprt_verdict(llr, *cfg_.sprt) : SprtVerdict::CONTINUE;
        if (v != SprtVerdict::CONTINUE && !summary_.sprt) {
            summary_.sprt = v;
            out_ << "SPRT: " << (v == SprtVerdict::ACCEPT_H1 ? "H1" : "H0") << " accepted\n";
            stop_ = true;
        }
    }
    out_.flush();
}

void Tournament::work() {
    std::vector<std::unique_ptr<UciEngine>> engines(cfg_.engines.size());
    std::mutex* log_mutex = &mutex_;
    for (;;) {
        ScheduledGame job;
        {
            std::lock_guard lock(mutex_);
            if (stop_ || next_ >= schedule_.size()) break;
            job = schedule_[next_++];
            out_ << "Started game " << job.number << " of " << schedule_.size() << " (" << names_[job.white] << " vs "
                 << names_[job.black] << ")" << std::endl;
        }
        bool failed = false;
        for (int idx : {job.white, job.black}) {
            auto& engine = engines[idx];
            if (engine && engine->alive()) continue;
            EngineConfig ec = cfg_.engines[idx];
            ec.name = names_[idx];
            UciEngine::Log log;
            if (cfg_.debug)
                log = [this, log_mutex, name = names_[idx]](const std::string& line) {
                    std::lock_guard lock(*log_mutex);
                    err_ << name << " " << line << "\n";
                };
            engine = std::make_unique<UciEngine>(ec, log);
            if (auto started = engine->start(cfg_.chess960); !started) {
                std::lock_guard lock(mutex_);
                if (!fatal_) fatal_ = started.error();
                stop_ = true;
                failed = true;
                break;
            }
            engine->take_warnings();  // already shown by the first start
        }
        if (failed) break;

        GameSpec spec;
        if (!openings_.empty()) {
            const Opening& o = openings_[opening_for_encounter_[job.encounter]];
            spec.root = o.root;
            spec.book_moves = o.moves;
        } else if (cfg_.chess960) {
            spec.root = *chess960_position(chess960_for_encounter_[job.encounter]);
        } else {
            spec.root = Position::startpos();
        }
        PlayedGame rec = play_game(*engines[job.white], *engines[job.black], spec, cfg_.adjudication, &stop_);
        for (Color c : {WHITE, BLACK}) {
            auto& engine = engines[c == WHITE ? job.white : job.black];
            if (rec.needs_restart[c] || engine->config().restart || !engine->alive()) engine.reset();
        }
        if (rec.outcome.reason == Status::ABORTED) {
            // Stopped from outside, or an opening that could not be played: the game
            // does not count; the second case is said.
            if (!stop_) {
                std::lock_guard lock(mutex_);
                err_ << "outpost match: game " << job.number << " not played: " << rec.reason << "\n";
            }
            continue;
        }
        report(job, rec);
    }
}

void Tournament::print_final() {
    out_ << "\n";
    for (const auto& p : summary_.pairs) {
        print_pair(p);
        const EloEstimate e = estimate_elo(p.games);
        out_ << "Elo difference: " << fixed(e.elo, 1) << " +/- " << fixed(e.error, 1)
             << ", LOS: " << fixed(100 * e.los, 1) << " %, DrawRatio: " << fixed(100 * e.draw_ratio, 1) << " %\n";
        if (p.pairs.pairs() > 0) {
            const EloEstimate pe = estimate_elo(p.pairs);
            out_ << "Pentanomial [" << p.pairs.counts[0];
            for (int i = 1; i < 5; ++i) out_ << ", " << p.pairs.counts[i];
            out_ << "]: Elo " << fixed(pe.elo, 1) << " +/- " << fixed(pe.error, 1) << ", LOS " << fixed(100 * pe.los, 1)
                 << " %\n";
        }
        if (cfg_.sprt) {
            out_ << sprt_line(p, nullptr) << "\n";
            if (summary_.sprt)
                out_ << "SPRT: " << (*summary_.sprt == SprtVerdict::ACCEPT_H1 ? "H1" : "H0") << " accepted\n";
            else
                out_ << "SPRT: no decision yet\n";
        }
    }
    if (cfg_.engines.size() > 2) {
        // Standings: each engine against the field.
        std::vector<int> order(cfg_.engines.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return per_engine_[a].wins + 0.5 * per_engine_[a].draws > per_engine_[b].wins + 0.5 * per_engine_[b].draws;
        });
        std::size_t width = 4;
        for (const auto& n : names_) width = std::max(width, n.size());
        char line[256];
        std::snprintf(line, sizeof line, "\nRank %-*s %8s %8s %6s %7s %7s\n", int(width), "Name", "Elo", "+/-", "Games",
                      "Score", "Draw");
        out_ << line;
        int rank = 0;
        for (int idx : order) {
            const Trinomial& t = per_engine_[idx];
            const EloEstimate e = estimate_elo(t);
            std::snprintf(line, sizeof line, "%4d %-*s %8s %8s %6d %6s%% %6s%%\n", ++rank, int(width),
                          names_[idx].c_str(), fixed(e.elo, 0).c_str(), fixed(e.error, 0).c_str(), t.games(),
                          fixed(100 * t.score(), 1).c_str(), fixed(100 * e.draw_ratio, 1).c_str());
            out_ << line;
        }
    }
    out_ << "Finished match" << std::endl;
}

Result<MatchSummary> Tournament::run() {
    // Openings first: a bad file should fail before any engine starts.
    if (!cfg_.openings.file.empty()) {
        auto loaded = cfg_.openings.format == OpeningFormat::EPD
                          ? load_epd(cfg_.openings.file, cfg_.chess960)
                          : load_pgn(cfg_.openings.file, cfg_.openings.plies, cfg_.chess960);
        if (!loaded) return loaded.error();
        openings_ = std::move(*loaded);
    }
    schedule_ = make_schedule(cfg_);
    const int encounters = schedule_.empty() ? 0 : schedule_.back().encounter + 1;
    std::mt19937_64 rng(cfg_.seed ? *cfg_.seed : std::random_device{}());
    if (!openings_.empty()) {
        std::vector<int> order(openings_.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
        if (cfg_.openings.random_order) std::shuffle(order.begin(), order.end(), rng);
        for (int e = 0; e < encounters; ++e)
            opening_for_encounter_.push_back(order[(cfg_.openings.start - 1 + e) % order.size()]);
    } else if (cfg_.chess960) {
        std::uniform_int_distribution<int> pick(0, 959);
        for (int e = 0; e < encounters; ++e) chess960_for_encounter_.push_back(pick(rng));
    }
    encounter_points_.assign(encounters, 0.0);
    encounter_games_.assign(encounters, 0);
    per_engine_.assign(cfg_.engines.size(), {});

    // Start every engine once: a wrong command fails here with a clear message, and
    // engines without name= are named by what they say in `id name`.
    for (std::size_t i = 0; i < cfg_.engines.size(); ++i) {
        UciEngine probe(cfg_.engines[i]);
        auto started = probe.start(cfg_.chess960);
        if (!started) return started.error();
        for (const auto& w : probe.take_warnings()) err_ << "outpost match: warning: " << w << "\n";
        std::string name = cfg_.engines[i].name;
        if (name.empty()) name = probe.id_name().empty() ? basename_of(cfg_.engines[i].command[0]) : probe.id_name();
        names_.push_back(name);
    }
    // Two engines with one name would be told apart nowhere else.
    for (std::size_t i = 0; i < names_.size(); ++i) {
        int same = 1;
        for (std::size_t j = 0; j < i; ++j)
            if (names_[j] == names_[i] || names_[j].rfind(names_[i] + " (", 0) == 0) ++same;
        if (same > 1) names_[i] += " (" + std::to_string(same) + ")";
    }

    const int threads = std::max(1, std::min<int>(cfg_.concurrency, int(schedule_.size())));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back([this] { work(); });
    for (auto& t : pool) t.join();

    if (fatal_) return *fatal_;
    summary_.interrupted = stop_ && !summary_.sprt && summary_.games_played < int(schedule_.size());
    print_final();
    return summary_;
}

}  // namespace outpost::match
