// Outpost — the HTTP calls between nodes of a RedisBus (redis_http.cpp): the calls this
// node waits for, and who answers the other nodes' calls here.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/bus/cluster_bus.h"

namespace outpost::server::redis {

struct HttpCalls {
    struct Call {
        std::string node;                   // asked: only its answer is taken
        std::optional<HttpResponse> answer;  // set once: the answer, or why there is none
    };
    std::mutex mutex;
    std::condition_variable done;
    std::unordered_map<std::uint64_t, std::shared_ptr<Call>> waiting;
    std::uint64_t next = 0;  // from a random start: a restarted node does not take its predecessor's answers
    bool stopping = false;
    std::mutex answerer_mutex;  // held while the answerer is called or changed
    ClusterBus::HttpAnswerer answerer;
};

}  // namespace outpost::server::redis
