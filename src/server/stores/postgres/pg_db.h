// Outpost — PostgreSQL access shared by the server's stores (games, accounts, …): one
// libpq connection with its prepared statements, the parameters of a statement (always
// bound, never written into the SQL), the rows it answers, and the one transaction
// wrapper. A connection lost while serving is opened again by its next use (with a
// pause between attempts): the statements of the meantime fail with a clear error.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "chess/result.h"

struct pg_conn;
struct pg_result;

namespace outpost::server::pg {

// The parameters of one statement, $1, $2, … in order, as text (PostgreSQL converts
// them to the column's type); a missing value is NULL.
class Params {
public:
    template <class T>
    Params& operator()(const T& v) {
        if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                      std::is_convertible_v<T, const char*>)
            values_.emplace_back(std::string(v));
        else if constexpr (std::is_same_v<T, bool>)
            values_.emplace_back(v ? "1" : "0");
        else if constexpr (std::is_floating_point_v<T>)
            values_.emplace_back(real_text(double(v)));
        else
            values_.emplace_back(std::to_string(std::int64_t(v)));
        return *this;
    }
    Params& null() {
        values_.emplace_back(std::nullopt);
        return *this;
    }
    Params& value(std::optional<std::string> v) {
        values_.push_back(std::move(v));
        return *this;
    }
    // 0 is NULL (an account id that is none).
    Params& id_or_null(std::int64_t v) { return v ? (*this)(v) : null(); }
    const std::vector<std::optional<std::string>>& values() const { return values_; }

private:
    static std::string real_text(double v);  // every digit: read back to the same double
    std::vector<std::optional<std::string>> values_;
};

// The answer of a statement: its rows (text columns) and how many rows it changed.
class Rows {
public:
    Rows() = default;
    explicit Rows(pg_result* r);
    int size() const;
    bool empty() const { return size() == 0; }
    bool null(int row, int col) const;
    std::string text(int row, int col) const;
    std::int64_t integer(int row, int col) const;  // NULL reads as 0
    double real(int row, int col) const;
    std::int64_t changed() const;  // rows an INSERT, UPDATE or DELETE changed

private:
    std::shared_ptr<pg_result> r_;
};

// The URL as it may be shown (a log line, an error): without its password.
std::string shown_url(std::string_view url);

// One connection, used by one thread at a time (its `mutex`).
class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Connects to the database of a libpq URL (postgresql://USER@HOST:PORT/DB, or
    // postgresql:///DB?host=/socket/folder); an error says where and why.
    Result<bool> open(const std::string& url);
    // Opens and brings the schema up to date (pg_schema.h): every store opens so.
    Result<bool> open_store(const std::string& url);

    // A prepared statement, made once per connection; `sql` must live as long as the
    // program (a literal or a static string): it is the statement's key.
    Result<Rows> run(const char* sql, const Params& params = {});
    // Statements without parameters, several separated by ';' (schema, BEGIN, …).
    Result<bool> exec(const char* sql);
    // The one transaction wrapper: BEGIN, the body, COMMIT; ROLLBACK on error.
    template <class Body>
    Result<bool> transaction(Body&& body) {
        if (auto r = exec("BEGIN"); !r) return r;
        in_transaction_ = true;
        Result<bool> r = body();
        if (r) r = exec("COMMIT");
        if (!r) (void)exec("ROLLBACK");
        in_transaction_ = false;
        return r;
    }
    const std::string& url() const { return url_; }

    std::mutex mutex;

private:
    Result<bool> usable();  // connects again after a loss (not inside a transaction)
    Error failure(const std::string& what, pg_result* r = nullptr);
    pg_conn* conn_ = nullptr;
    std::string url_;
    std::unordered_map<const char*, std::string> prepared_;  // SQL text's address -> statement name
    bool in_transaction_ = false;
    bool lost_ = false;  // the connection broke; logged once, until it works again
    std::chrono::steady_clock::time_point last_attempt_{};
};

}  // namespace outpost::server::pg
