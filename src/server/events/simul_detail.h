// Outpost — what the two files of the simuls service share (simul.h): the error for an
// unknown simul and the shape of a simul's id. Included only by simul*.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

#include "server/common/protocol.h"

namespace outpost::server::simul_detail {

inline ProtocolError no_simul() { return {"not_found", "no such simul", 404}; }

inline bool valid_simul_id(const std::string& id) {
    if (id.empty() || id.size() > 32) return false;
    return std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace outpost::server::simul_detail
