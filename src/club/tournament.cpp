// Outpost — tournament state.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/tournament.h"

#include <algorithm>
#include <cctype>

namespace outpost::club {

char result_code_char(ResultCode r) {
    switch (r) {
        case ResultCode::NONE: return ' ';
        case ResultCode::WIN: return '1';
        case ResultCode::DRAW: return '=';
        case ResultCode::LOSS: return '0';
        case ResultCode::FORFEIT_WIN: return '+';
        case ResultCode::FORFEIT_LOSS: return '-';
        case ResultCode::WIN_UNRATED: return 'W';
        case ResultCode::DRAW_UNRATED: return 'D';
        case ResultCode::LOSS_UNRATED: return 'L';
        case ResultCode::HALF_BYE: return 'H';
        case ResultCode::FULL_BYE: return 'F';
        case ResultCode::PAIRING_BYE: return 'U';
        case ResultCode::ZERO_BYE: return 'Z';
    }
    return ' ';
}

std::optional<ResultCode> result_code_from_char(char c) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case ' ': return ResultCode::NONE;
        case '1': return ResultCode::WIN;
        case '=': return ResultCode::DRAW;
        case '0': return ResultCode::LOSS;
        case '+': return ResultCode::FORFEIT_WIN;
        case '-': return ResultCode::FORFEIT_LOSS;
        case 'W': return ResultCode::WIN_UNRATED;
        case 'D': return ResultCode::DRAW_UNRATED;
        case 'L': return ResultCode::LOSS_UNRATED;
        case 'H': return ResultCode::HALF_BYE;
        case 'F': return ResultCode::FULL_BYE;
        case 'U': return ResultCode::PAIRING_BYE;
        case 'Z': return ResultCode::ZERO_BYE;
        default: return std::nullopt;
    }
}

double Scoring::points(ResultCode r) const {
    switch (r) {
        case ResultCode::WIN:
        case ResultCode::FORFEIT_WIN:
        case ResultCode::WIN_UNRATED:
        case ResultCode::FULL_BYE: return win;
        case ResultCode::DRAW:
        case ResultCode::DRAW_UNRATED:
        case ResultCode::HALF_BYE: return draw;
        case ResultCode::LOSS:
        case ResultCode::LOSS_UNRATED: return loss;
        case ResultCode::FORFEIT_LOSS:
        case ResultCode::ZERO_BYE:
        case ResultCode::NONE: return absence;
        case ResultCode::PAIRING_BYE: return pairing_bye;
    }
    return 0.0;
}

bool RoundEntry::played() const {
    if (opponent == 0) return false;
    switch (result) {
        case ResultCode::WIN:
        case ResultCode::DRAW:
        case ResultCode::LOSS:
        case ResultCode::WIN_UNRATED:
        case ResultCode::DRAW_UNRATED:
        case ResultCode::LOSS_UNRATED: return true;
        default: return false;
    }
}

const Player* Tournament::find(int start_rank) const {
    // Files list the players by starting rank 1..n: look there first.
    if (start_rank >= 1 && start_rank <= static_cast<int>(players.size()) &&
        players[static_cast<std::size_t>(start_rank - 1)].start_rank == start_rank)
        return &players[static_cast<std::size_t>(start_rank - 1)];
    for (const Player& p : players)
        if (p.start_rank == start_rank) return &p;
    return nullptr;
}

int Tournament::rounds_paired() const {
    int last = 0;
    for (const Player& p : players)
        for (std::size_t r = 0; r < p.rounds.size(); ++r)
            if (p.rounds[r].opponent != 0 || p.rounds[r].result == ResultCode::PAIRING_BYE)
                last = std::max(last, static_cast<int>(r) + 1);
    return last;
}

double Tournament::score(const Player& p, int rounds) const {
    double s = 0.0;
    for (int r = 1; r <= rounds; ++r) s += scoring.points(p.round(r).result);
    return s;
}

}  // namespace outpost::club
