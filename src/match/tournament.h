// Outpost — a match or round-robin tournament of UCI engines: the schedule, the
// workers that play games at once, the running score, Elo and SPRT.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "chess/result.h"
#include "match/config.h"

namespace outpost::match {

// One game of the schedule. Games that share an encounter use the same opening with
// colours swapped (-repeat).
struct ScheduledGame {
    int number = 0;  // 1-based, in schedule order
    int round = 0;   // 1-based
    int first = 0;   // the pair, as engine indices (first < second in round-robin)
    int second = 0;
    int white = 0, black = 0;
    int encounter = 0;  // 0-based, across the whole schedule
};

std::vector<ScheduledGame> make_schedule(const MatchConfig& cfg);

// The results of one pair, from the first engine's point of view.
struct PairResult {
    int first = 0, second = 0;
    Trinomial games;
    Pentanomial pairs;
};

struct MatchSummary {
    int games_played = 0;
    std::vector<PairResult> pairs;
    std::optional<SprtVerdict> sprt;
    bool interrupted = false;
};

class Tournament {
public:
    // `stop` may be set from outside (Ctrl-C); the tournament sets it too when the
    // SPRT decides. Running games are then abandoned and not counted.
    Tournament(MatchConfig cfg, std::ostream& out, std::ostream& err, std::atomic<bool>& stop);
    // The summary, or the fatal problem that ended the match (an openings file that
    // cannot be read, an engine that cannot be started).
    Result<MatchSummary> run();

private:
    void work();
    void report(const ScheduledGame& job, const PlayedGame& rec);
    void print_pair(const PairResult& p);
    void print_final();
    std::string sprt_line(const PairResult& p, double* llr) const;
    PairResult& pair_of(const ScheduledGame& job);

    MatchConfig cfg_;
    std::ostream& out_;
    std::ostream& err_;
    std::atomic<bool>& stop_;
    std::vector<ScheduledGame> schedule_;
    std::vector<Opening> openings_;
    std::vector<int> opening_for_encounter_;
    std::vector<int> chess960_for_encounter_;
    std::vector<std::string> names_;

    std::mutex mutex_;  // guards everything below and the output streams
    std::size_t next_ = 0;
    MatchSummary summary_;
    std::optional<Error> fatal_;
    // Per encounter with -repeat 2: the first game's points for the pair's first engine.
    std::vector<double> encounter_points_;
    std::vector<int> encounter_games_;
    std::vector<Trinomial> per_engine_;
};

}  // namespace outpost::match
