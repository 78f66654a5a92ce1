// Outpost — the one header through which server code includes Asio and Beast.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Debian 12's Boost 1.74 uses std::exchange in asio/awaitable.hpp without including
// <utility>; with g++ 12 that fails unless <utility> comes first. Keep this header
// out of anything the rules core or the engine includes: a Beast translation unit
// takes a long time to compile.
#pragma once

#include <utility>  // must precede Asio (see above)

#include <boost/asio.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace outpost::server {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;
}  // namespace outpost::server
