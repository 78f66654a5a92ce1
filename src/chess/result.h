// Outpost — error values. Every operation that can fail returns Result<T>: a value or
// an Error that says in words what is wrong and where. No exceptions on bad input.
// Layers whose errors carry more than words use the same template with their own
// error type (the server's Answer<T> is Result<T, ProtocolError>: a code, words and
// an HTTP status).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace outpost {

struct Error {
    std::string message;
};

template <class T, class E = Error>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
    Result(E error) : v_(std::move(error)) {}      // NOLINT: implicit by design

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const E& error() const { return std::get<1>(v_); }

private:
    std::variant<T, E> v_;
};

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace outpost
