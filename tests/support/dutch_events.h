// Outpost — random Swiss events for the Dutch system's tests (SPEC P20): a
// tournament built in memory, random results, and the properties every round
// must have (C.04.1, C.04.3 C.1-C.3, colour limits).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "club/dutch.h"

namespace outpost::test {

using namespace outpost::club;

inline Tournament empty_tournament(int n, int rounds) {
    Tournament t;
    t.total_rounds = rounds;
    for (int i = 1; i <= n; ++i) {
        Player p;
        p.start_rank = i;
        p.name = "Player " + std::to_string(i);
        p.rating = 2400 - 5 * i;
        t.players.push_back(p);
    }
    return t;
}

inline void set_entry(Tournament& t, int id, int round, RoundEntry e) {
    Player& p = t.players[static_cast<std::size_t>(id - 1)];
    if (static_cast<int>(p.rounds.size()) < round) p.rounds.resize(static_cast<std::size_t>(round));
    p.rounds[static_cast<std::size_t>(round - 1)] = e;
}

// Writes a round's pairing with random results (white wins, draws, black wins).
inline void play(Tournament& t, int round, const Round& pairing, std::mt19937& rng) {
    for (const Pairing& g : pairing) {
        if (g.is_bye()) {
            set_entry(t, g.white, round, {0, Colour::NONE, ResultCode::PAIRING_BYE});
            continue;
        }
        int roll = static_cast<int>(rng() % 100);
        ResultCode w = roll < 40 ? ResultCode::WIN : roll < 70 ? ResultCode::DRAW : ResultCode::LOSS;
        ResultCode b = w == ResultCode::WIN ? ResultCode::LOSS : w == ResultCode::LOSS ? ResultCode::WIN : ResultCode::DRAW;
        set_entry(t, g.white, round, {g.black, Colour::WHITE, w});
        set_entry(t, g.black, round, {g.white, Colour::BLACK, b});
    }
}

// Properties of a round: the absolute criteria, no rematch, at most one bye per
// player over the event, colour differences within ±2 and never three equal
// colours running (outside the last round, where topscorers are exempt).
inline void check_properties(const Tournament& t, const std::vector<PairingPlayer>& ps, int round, const Round& pairing,
                      const std::string& where) {
    std::string abs = check_absolute_criteria(ps, pairing);
    bool last = round == t.total_rounds;
    if (!last) {
        EXPECT_EQ(abs, "") << where;
    }
    std::set<int> seen;
    for (const Pairing& g : pairing) {
        seen.insert(g.white);
        if (!g.is_bye()) seen.insert(g.black);
    }
    EXPECT_EQ(seen.size(), ps.size()) << where;
    for (const Player& p : t.players) {
        int byes = 0, diff = 0, run = 0;
        Colour prev = Colour::NONE;
        for (const RoundEntry& e : p.rounds) {
            if (e.result == ResultCode::PAIRING_BYE) ++byes;
            if (!e.played()) continue;
            diff += e.colour == Colour::WHITE ? 1 : -1;
            run = e.colour == prev ? run + 1 : 1;
            prev = e.colour;
            if (!last) {
                EXPECT_LE(std::abs(diff), 2) << where << " player " << p.start_rank;
                EXPECT_LE(run, 2) << where << " player " << p.start_rank;
            }
        }
        EXPECT_LE(byes, 1) << where << " player " << p.start_rank;
        std::set<int> opponents;
        for (const RoundEntry& e : p.rounds)
            if (e.opponent != 0) {
                EXPECT_TRUE(opponents.insert(e.opponent).second) << where << " rematch " << p.start_rank;
            }
    }
}

// The slowest round's pairing time goes to `slowest` (wall clock) and
// `slowest_cpu` (processor time: the machine may be shared).
inline void random_event(std::mt19937& rng, int n, int rounds, const std::string& name, double* slowest,
                         double* slowest_cpu = nullptr) {
    Tournament t = empty_tournament(n, rounds);
    for (int r = 1; r <= rounds; ++r) {
        if (r > 1 && rng() % 3 == 0) set_entry(t, 1 + static_cast<int>(rng() % n), r, {0, Colour::NONE, ResultCode::HALF_BYE});
        auto start = std::chrono::steady_clock::now();
        std::clock_t cpu_start = std::clock();
        auto pairing = pair_dutch(t);
        double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (slowest) *slowest = std::max(*slowest, secs);
        if (slowest_cpu) *slowest_cpu = std::max(*slowest_cpu, cpu);
        ASSERT_TRUE(pairing.ok()) << name << " round " << r << ": " << pairing.error().message;
        auto ps = pairing_players(t, r);
        play(t, r, *pairing, rng);
        check_properties(t, ps, r, *pairing, name + " round " + std::to_string(r));
        if (::testing::Test::HasFailure()) return;
    }
}

}  // namespace outpost::test
