// Outpost — how `outpost serve` opens its stores, chosen by the executable (src/app: the
// only place that knows the implementations, docs/architecture.md): one function per
// store, each opening it on the database the operator named (an SQLite file or a
// PostgreSQL URL). The server's rooms see the interfaces only.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "chess/result.h"
#include "server/stores/account_store.h"
#include "server/stores/admin_store.h"
#include "server/stores/event_store.h"
#include "server/stores/game_store.h"
#include "server/stores/puzzle_store.h"
#include "server/stores/simul_store.h"

namespace outpost::server {

struct StoreOpeners {
    std::string shown;  // the database as the log shows it (a URL without its password)
    std::function<Result<std::unique_ptr<Storage>>()> games;
    std::function<Result<std::unique_ptr<AccountStore>>()> accounts;
    std::function<Result<std::unique_ptr<EventStore>>()> events;
    std::function<Result<std::unique_ptr<SimulStore>>()> simuls;
    std::function<Result<std::unique_ptr<AdminStore>>()> admin;
    std::function<Result<std::unique_ptr<PuzzleStore>>()> puzzles;  // issue 29
};

}  // namespace outpost::server
