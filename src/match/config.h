// Outpost — what `outpost match` is asked to do, and the reader of its arguments.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The arguments follow the engine-testing tradition of single-dash options followed
// by key=value words (-engine cmd=… name=… -each tc=10+0.1 …), which is why this
// subcommand has a reader of its own rather than CLI11's. "--engine" works as well.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"
#include "match/openings.h"
#include "match/referee.h"
#include "match/stats.h"
#include "match/uci_engine.h"

namespace outpost::match {

struct OpeningsConfig {
    std::string file;  // empty: every game from the start position
    OpeningFormat format = OpeningFormat::EPD;
    bool random_order = false;
    int plies = 0;  // PGN: book moves kept per game (0: all)
    int start = 1;  // the first opening used (1-based)
};

enum class Pairing { ROUND_ROBIN, GAUNTLET };

struct MatchConfig {
    std::vector<EngineConfig> engines;
    Pairing pairing = Pairing::ROUND_ROBIN;
    OpeningsConfig openings;
    int games = 1;  // games per pair in a round
    int rounds = 1;
    int repeat = 1;  // games played with each opening, colours swapped each time
    int concurrency = 1;
    Adjudication adjudication;
    std::string pgn_out;  // appended to; empty: no PGN
    std::optional<SprtConfig> sprt;
    bool chess960 = false;
    std::optional<std::uint64_t> seed;
    std::string event = "?";
    std::string site = "?";
    bool debug = false;  // every line to and from the engines on stderr
    bool help = false;

    int total_games() const;
};

Result<MatchConfig> parse_match_args(const std::vector<std::string>& args);
// The full usage text for `outpost match -help`.
std::string match_usage();

}  // namespace outpost::match
