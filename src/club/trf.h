// Outpost — FIDE Tournament Report File (TRF): the 2026 version (tags 142/152
// for the number of rounds and the initial colour) and the older TRF(x) that the
// pairing engines JaVaFo and bbpPairings read (XXR, XXC). Text in, text out: the
// caller reads and writes the files.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "chess/result.h"
#include "club/tournament.h"

namespace outpost::club {

enum class TrfFlavour : std::uint8_t {
    TRF26,  // number of rounds in tag 142, initial colour in 152 (W/B)
    TRFX,   // XXR n, XXC white1/black1
};

// Reads either flavour (both sets of tags are understood). Errors name the line,
// the field and its columns: "line 7, round 3 colour (column 117): 'x' is not w, b or -".
// Checks that every opponent exists and that the two entries of a game agree.
Result<Tournament> read_trf(std::string_view text);

// Writes the players with fixed columns as the format defines them, the tags of
// the flavour, and the lines the reader kept verbatim.
std::string write_trf(const Tournament& t, TrfFlavour flavour);

}  // namespace outpost::club
