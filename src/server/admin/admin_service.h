// Outpost — the admin page's routes (SPEC D9; docs/protocol.md, "Administration"):
// the games being played and the connections, accounts (find, disable, enable, sign
// out everywhere), an arbiter's decision that ends a game, closing an event or a simul,
// the reports players send, and the audit log of every admin action.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every /api/v1/admin route answers only a signed-in account made with `--admin`
// (`outpost user add NAME --admin`), read afresh from the store at each request: a
// request from another site's page (an Origin that is not the server's) is refused
// before anything else (403 forbidden_origin), an anonymous one with 401
// not_signed_in, a player's with 403 not_admin. Every change an admin makes is
// written to the audit log (stores/admin_store.h) with who, what, when, and the state
// before and after. The players' route POST /api/v1/reports (signed-in players only,
// limited per account and per address) is here too: the reports are the admin page's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "server/accounts/session_end.h"
#include "server/common/guards.h"
#include "server/common/http.h"
#include "server/play/hub.h"
#include "server/stores/account_store.h"
#include "server/stores/admin_store.h"

namespace outpost::server {

class EventService;
class SimulService;

// One open WebSocket as the admin page lists it: its account ("" anonymous) and kind.
struct AdminConnection {
    std::string account;
    std::string kind;  // "game", "lobby", "simul"
};

struct AdminEnv {
    std::function<std::int64_t()> wall_ms;
    std::function<Millis()> monotonic_ms;
    std::vector<std::string> allowed_origins;  // as --allow-origin
    EndSessions end_sessions;                  // closes the connections of sessions that end (issue 25)
    std::function<std::vector<AdminConnection>()> connections;  // the open WebSockets; unset: none known
    bool client_limits = true;                 // false: no per-address limit on reports (--no-client-limits)
    int reports_per_hour = 10;                 // reports one account may send in an hour
};

class AdminService {
public:
    AdminService(AdminEnv env, AdminStore& store, AccountStore& accounts, Hub& hub, EventService* events,
                 SimulService* simuls);

    // Whether this service answers the request's path: /api/v1/admin/… and /api/v1/reports.
    static bool handles(const HttpRequest& req);
    HttpResponse handle(const HttpRequest& req);

    // The reason an arbiter gave for ending a game ("" none): for HubEnv::arbiter_reason.
    std::string arbiter_reason(const std::string& game_id);
    // Issue 26: the reports per address counted by every node too (RateLimiter::share).
    void share_limits(SharedLimits* shared) { report_limiter_.share(shared, "report"); }

private:
    HttpResponse admin_route(const HttpRequest& req, const Account& admin, const std::string& path,
                             const std::map<std::string, std::string>& query);
    HttpResponse overview();
    HttpResponse find_accounts(const std::string& q);
    HttpResponse account_action(const HttpRequest& req, const Account& admin, const std::string& name,
                                const std::string& action);
    HttpResponse end_game(const HttpRequest& req, const Account& admin, const std::string& id);
    HttpResponse close_event(const Account& admin, const std::string& id);
    HttpResponse close_simul(const Account& admin, const std::string& id);
    HttpResponse audit_log(const std::map<std::string, std::string>& query);
    // admin_reports.cpp
    HttpResponse send_report(const HttpRequest& req);
    HttpResponse list_reports(const std::map<std::string, std::string>& query);
    HttpResponse set_report_state(const HttpRequest& req, const Account& admin, const std::string& id);
    // Writes the audit entry of a change made; an error answer when the log could not be written.
    std::optional<HttpResponse> audit(const Account& admin, const std::string& action, const std::string& target,
                                      const std::string& before, const std::string& after);
    std::optional<HttpResponse> refuse_cross_site(const HttpRequest& req) const;

    AdminEnv env_;
    AdminStore& store_;
    AccountStore& accounts_;
    Hub& hub_;
    EventService* events_;
    SimulService* simuls_;
    RateLimiter report_limiter_{1.0 / 360, 5};  // reports per address: 5 at once, then one each 6 minutes
};

}  // namespace outpost::server
