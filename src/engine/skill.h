// Outpost — playing levels (P3, E2).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A weaker level is the same search with four human-like handicaps:
//   - a horizon: limited depth and nodes, so deep tactics go unseen;
//   - oversights: some captures are left out of the search (mostly the opponent's),
//     the way a beginner does not notice that a piece hangs;
//   - a choice among the best few root moves, weighted by their scores with a
//     level-dependent temperature, so a weak player picks a plausible but worse move;
//   - a taste for natural moves (captures, checks, developing and central moves),
//     which is what people play when they do not calculate.
// Never a uniformly random move: every candidate was among the search's best.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/position.h"
#include "engine/score.h"

namespace outpost::engine {

constexpr int LEVEL_MIN = 1;
constexpr int LEVEL_MAX = 10;
// The one range of a custom strength (UCI_Elo, the server's "elo", the UI's field,
// /api/v1/levels): from below the weakest measured level, which every Elo under it
// plays as, up to full strength at ELO_MAX; between the strongest measured level and
// ELO_MAX the handicap fades out (skill_for_elo).
constexpr int ELO_MIN = 400;
constexpr int ELO_MAX = 2850;

struct SkillParams {
    bool enabled = false;   // false: full strength
    int depth = 0;          // maximum iteration depth
    std::uint64_t nodes = 0;  // node budget per move
    int candidates = 1;     // root moves considered (internal MultiPV)
    int temperature = 0;    // centipawns: a move this much worse is e times less likely
    int oversight = 0;      // per mille of captures not seen
    int natural_bonus = 0;  // centipawns added to natural-looking candidates
    std::int64_t max_ms = 0;  // cap on the thinking time per move
};

// The parameters of a level 1..10 (10 is full strength).
SkillParams skill_for_level(int level);
// The parameters for an Elo in ELO_MIN..ELO_MAX (UCI_LimitStrength), interpolated
// between levels; below the weakest level its parameters, at ELO_MAX full strength.
// Elos outside the range are clamped (the option and the server refuse them first).
SkillParams skill_for_elo(int elo);
// The approximate Elo a level was designed to play at.
int level_target_elo(int level);
// What was measured of a level (bench/engine/levels.sh): its Elo with the 95% error
// and the games and opponent behind it; elo is the design target when not measured.
struct LevelStrength {
    int elo = 0;
    int error = 0;
    int games = 0;
    bool measured = false;
    const char* against = "";
};
LevelStrength level_strength(int level);
std::string level_description();

// The one handicap the search itself must apply, because it lives below the root:
// captures a weak player does not see. Everything else of a level is applied by the
// Engine at the root (limits on depth, nodes and time; the choice among candidates).
struct Oversight {
    int per_mille = 0;       // the opponent's captures not seen; one's own a third as often
    std::uint64_t seed = 0;  // one per move, so that the same blind spot persists within it

    static Oversight of(const SkillParams& skill, std::uint64_t seed) {
        return {skill.enabled ? skill.oversight : 0, seed};
    }
    bool enabled() const { return per_mille > 0; }
    // Whether the search overlooks move m in the position with the given key.
    bool overlooks(Key key, Move m, bool opponent) const;
};

struct Candidate {
    Move move;
    Value score;
};
// Picks the move to play among the candidates (best first).
Move choose_skill_move(const SkillParams& skill, const Position& root, const std::vector<Candidate>& candidates,
                       std::uint64_t random);

}  // namespace outpost::engine
