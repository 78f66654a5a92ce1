// Outpost — PostgreSQL access shared by the stores (pg_db.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/stores/postgres/pg_db.h"

#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <regex>

#include "server/observe/log.h"
#include "server/stores/postgres/pg_schema.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server::pg {
namespace {

// Between two attempts to connect again after a loss: a database that is down is not
// asked at every statement.
constexpr auto RetryPause = std::chrono::milliseconds(250);

// libpq's message on one line (it spans several: "…failed: …\n\tIs the server running…").
std::string trimmed(const char* msg) {
    std::string s;
    for (const char* p = msg ? msg : ""; *p; ++p) {
        const bool space = *p == '\n' || *p == '\t' || *p == '\r' || *p == ' ';
        if (space && (s.empty() || s.back() == ' ')) continue;
        s += space ? ' ' : *p;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.empty() ? "unknown error" : s;
}

}  // namespace

std::string Params::real_text(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

Rows::Rows(pg_result* r) : r_(r, PQclear) {}
int Rows::size() const { return r_ ? PQntuples(r_.get()) : 0; }
bool Rows::null(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
std::string Rows::text(int row, int col) const {
    return std::string(PQgetvalue(r_.get(), row, col), size_t(PQgetlength(r_.get(), row, col)));
}
std::int64_t Rows::integer(int row, int col) const {
    if (null(row, col)) return 0;
    return std::strtoll(PQgetvalue(r_.get(), row, col), nullptr, 10);
}
double Rows::real(int row, int col) const {
    if (null(row, col)) return 0;
    return std::strtod(PQgetvalue(r_.get(), row, col), nullptr);
}
std::int64_t Rows::changed() const {
    const char* n = r_ ? PQcmdTuples(r_.get()) : "";
    return *n ? std::strtoll(n, nullptr, 10) : 0;
}

std::string shown_url(std::string_view url) {
    // postgresql://user:secret@host/db -> postgresql://user:***@host/db; password=… too.
    std::string s(url);
    s = std::regex_replace(s, std::regex(R"(^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@)"), "$1:***@");
    return std::regex_replace(s, std::regex(R"(([?&]password=)[^&]*)"), "$1***");
}

Connection::~Connection() {
    if (conn_) PQfinish(conn_);
}

Result<bool> Connection::open(const std::string& url) {
    url_ = url;
    // Ours first, then the URL's (which may override them): a connection that cannot
    // be made within 5 s is an error, not a hang.
    const char* keys[] = {"connect_timeout", "application_name", "client_encoding", "dbname", nullptr};
    const char* values[] = {"5", "outpost", "UTF8", url.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (!conn_) return make_error("cannot connect to the database " + shown_url(url) + ": out of memory");
    if (PQstatus(conn_) != CONNECTION_OK)
        return make_error("cannot connect to the database " + shown_url(url) + ": " + trimmed(PQerrorMessage(conn_)));
    // Notices (e.g. "relation already exists, skipping") are not the operator's business.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    return true;
}

Result<bool> Connection::open_store(const std::string& url) {
    if (auto r = open(url); !r) return r;
    return pg_schema::migrate(*this);
}

Error Connection::failure(const std::string& what, pg_result* r) {
    std::string msg = r ? trimmed(PQresultErrorMessage(r)) : trimmed(PQerrorMessage(conn_));
    if (PQstatus(conn_) == CONNECTION_BAD && !lost_) {
        lost_ = true;
        log_event(LogLevel::ERROR, "the connection to the database was lost", {{"database", shown_url(url_)}, {"error", msg}});
    }
    return make_error("database: " + what + ": " + msg);
}

Result<bool> Connection::usable() {
    if (!conn_) return make_error("database: not connected");
    if (PQstatus(conn_) == CONNECTION_OK) return true;
    if (!lost_) {
        lost_ = true;
        log_event(LogLevel::ERROR, "the connection to the database was lost", {{"database", shown_url(url_)}});
    }
    if (in_transaction_) return make_error("database: the connection was lost");
    const auto now = std::chrono::steady_clock::now();
    if (now - last_attempt_ < RetryPause)
        return make_error("database: the connection is lost (trying again): " + trimmed(PQerrorMessage(conn_)));
    last_attempt_ = now;
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK)
        return make_error("database: the connection is lost (trying again): " + trimmed(PQerrorMessage(conn_)));
    prepared_.clear();  // a new session: its statements are made again
    lost_ = false;
    log_event(LogLevel::INFO, "the connection to the database is back", {{"database", shown_url(url_)}});
    return true;
}

Result<Rows> Connection::run(const char* sql, const Params& params) {
    if (auto ok = usable(); !ok) return ok.error();
    auto it = prepared_.find(sql);
    if (it == prepared_.end()) {
        const std::string name = "s" + std::to_string(prepared_.size() + 1);
        PGresult* made = PQprepare(conn_, name.c_str(), sql, 0, nullptr);
        if (!made || PQresultStatus(made) != PGRES_COMMAND_OK) {
            Error e = failure(std::string("prepare (") + std::string(sql).substr(0, 60) + ")", made);
            PQclear(made);
            return e;
        }
        PQclear(made);
        it = prepared_.emplace(sql, name).first;
    }
    std::vector<const char*> values;
    values.reserve(params.values().size());
    for (const auto& v : params.values()) {
        // PostgreSQL's text holds no NUL byte (libpq would cut the value there): refused,
        // never stored shortened.
        if (v && v->find('\0') != std::string::npos)
            return make_error("database: a text with a NUL byte cannot be stored (" + std::string(sql).substr(0, 60) + ")");
        values.push_back(v ? v->c_str() : nullptr);
    }
    PGresult* r = PQexecPrepared(conn_, it->second.c_str(), int(values.size()), values.data(), nullptr, nullptr, 0);
    const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        Error e = failure(std::string(sql).substr(0, 60), r);
        PQclear(r);
        return e;
    }
    return Rows(r);
}

Result<bool> Connection::exec(const char* sql) {
    // BEGIN opens again a connection that was lost; COMMIT and ROLLBACK never do.
    if (!in_transaction_)
        if (auto ok = usable(); !ok) return ok.error();
    PGresult* r = PQexec(conn_, sql);
    const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        Error e = failure(std::string(sql).substr(0, 60), r);
        PQclear(r);
        return e;
    }
    PQclear(r);
    return true;
}

}  // namespace outpost::server::pg

namespace outpost::server::postgres {
std::string shown_url(std::string_view url) { return pg::shown_url(url); }
}  // namespace outpost::server::postgres
