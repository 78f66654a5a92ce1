// Outpost — adjourned games on the server (SPEC R18, P19; FIDE Laws, Guidelines I):
// the envelope as the room keeps it, when the game resumes, and how both are stored.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The envelope (chess::Adjournment) holds the sealed move. It is stored (the games
// row's `adjournment` column) and never written into any message, state, summary or
// PGN until the game has resumed: the only readers of `envelope.sealed_move` before
// then are the storage writer and resume time (docs/protocol.md, "Adjournment").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/game.h"
#include "chess/result.h"
#include "server/common/wire_text.h"

namespace outpost::server {

struct AdjournState {
    Adjournment envelope;             // position, clocks, who sealed, the sealed move
    int ply = 0;                      // plies played when the move was sealed
    std::int64_t sealed_at_ms = 0;    // wall clock (ms since 1970)
    std::int64_t resume_at_ms = 0;    // agreed (or set by the arbiter); 0: not yet
    std::optional<Color> proposal_by;  // a standing proposal of a resumption time
    std::int64_t proposal_at_ms = 0;
    std::int64_t resumed_at_ms = 0;   // 0: still adjourned; then the envelope is public
    bool sealed_move_played = false;  // resumed: the move was legal and played

    bool waiting() const { return resumed_at_ms == 0; }
};

// The stored form (JSON in the games row; "" for none).
std::string adjournment_to_json(const AdjournState& a);
Result<AdjournState> adjournment_from_json(std::string_view text);

// A sealed move as written on the envelope: 1 to 16 printable ASCII characters.


// The envelope as the PGN shows it after the game resumed (docs/protocol.md).
std::string envelope_comment(const AdjournState& a);

}  // namespace outpost::server
