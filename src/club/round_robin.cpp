// Outpost — Berger tables (FIDE Handbook C.05, Annex 1).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/round_robin.h"

#include <string>
#include <utility>

namespace outpost::club {

namespace {

// Round r (1-based) of the Berger table for an even n. With m = n − 1, the
// players 1..m are paired so that the two numbers of every pair sum to r + 1
// modulo m; the one player x with 2x ≡ r + 1 (mod m) meets n instead, with White
// in odd rounds and Black in even ones, on board 1. On the boards after it White
// is x + k and Black x − k (k = 1, 2, …, modulo m): this is the table's rotation,
// written as a formula.
Round berger_round(int n, int r) {
    const int m = n - 1;
    auto wrap = [m](int v) { return ((v - 1) % m + m) % m + 1; };
    int x = 1;
    while ((2 * x - (r + 1)) % m != 0) ++x;
    Round round;
    round.reserve(static_cast<std::size_t>(n / 2));
    round.push_back(r % 2 == 1 ? Pairing{x, n} : Pairing{n, x});
    for (int k = 1; k < n / 2; ++k) round.push_back({wrap(x + k), wrap(x - k)});
    return round;
}

}  // namespace

Result<std::vector<Round>> berger_schedule(int players, const RoundRobinOptions& options) {
    if (players < 3 || players > 20)
        return make_error("a round-robin needs 3 to 20 players, not " + std::to_string(players));
    const int n = players % 2 == 0 ? players : players + 1;
    std::vector<Round> cycle;
    for (int r = 1; r < n; ++r) {
        Round round = berger_round(n, r);
        if (n != players) {
            // The highest number is the bye: its opponent sits out, listed last.
            Round with_bye;
            Pairing bye{};
            for (const Pairing& p : round) {
                if (p.white == n) bye = {p.black, 0};
                else if (p.black == n) bye = {p.white, 0};
                else with_bye.push_back(p);
            }
            with_bye.push_back(bye);
            round = std::move(with_bye);
        }
        cycle.push_back(std::move(round));
    }
    if (!options.double_round) return cycle;

    std::vector<Round> rounds = cycle;
    if (options.swap_last_two_rounds_of_first_cycle && rounds.size() >= 2)
        std::swap(rounds[rounds.size() - 1], rounds[rounds.size() - 2]);
    for (const Round& round : cycle) {
        Round reversed;
        for (const Pairing& p : round) reversed.push_back(p.is_bye() ? p : Pairing{p.black, p.white});
        rounds.push_back(std::move(reversed));
    }
    return rounds;
}

}  // namespace outpost::club
