// Outpost — HTTP between nodes on the Redis bus (redis_bus.h, http_envelope.h,
// docs/scaling.md "HTTP of the domains node"): a node that does not run the events,
// simuls and analysis sends their requests to the node that does and writes its answer.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The asking node (a request pool thread) publishes the request on the answering
// node's channel, through the one publisher (in order with everything else it sends),
// and waits for the answer with the call's number. A call ends with the answer, or 503
// `unavailable` when the publication reached nobody (the node is gone), Redis cannot be
// reached, the wait passed its timeout or the bus stops. An answer that comes after its
// call ended is dropped. The answering node reads the request on the subscriber's
// thread and hands it to its answerer (the edge: its request pool), which replies once.
#include "server/bus/redis/redis_http.h"

#include <random>

#include "server/bus/redis/http_envelope.h"
#include "server/bus/redis/redis_bus.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

namespace {

// As the publisher's own queue (redis_bus.cpp): past it, nothing more is queued.
constexpr std::size_t MaxWaitingOut = 200'000;

HttpResponse unavailable(const std::string& why) {
    return HttpResponse{503, "application/json", error_json({"unavailable", why, 503}), {{"Retry-After", "2"}}};
}

}  // namespace

HttpResponse RedisBus::forward_http(const std::string& to_node, const HttpRequest& request,
                                    std::chrono::milliseconds timeout) {
    HttpCalls& calls = *http_;
    auto call = std::make_shared<HttpCalls::Call>();
    call->node = to_node;
    std::uint64_t id = 0;
    {
        std::lock_guard lock(calls.mutex);
        if (calls.stopping) return unavailable("this node is stopping");
        if (calls.next == 0) calls.next = (std::uint64_t(std::random_device{}()) << 20) + 1;
        id = calls.next++;
        calls.waiting[id] = call;
    }
    Out o;
    o.channel = channel_of(to_node);
    o.payload = encode_http(http_request_envelope(id, node(), request));
    o.http_call = id;
    bool queued = false;
    {
        std::lock_guard lock(out_mutex_);
        if (!stopping_ && out_.size() < MaxWaitingOut) {
            out_.push_back(std::move(o));
            queued = true;
        }
    }
    if (queued) out_wake_.notify_one();
    std::unique_lock lock(calls.mutex);
    if (queued) calls.done.wait_for(lock, timeout, [&] { return call->answer.has_value(); });
    calls.waiting.erase(id);
    if (call->answer) return std::move(*call->answer);
    log_event(LogLevel::WARN, "bus: a forwarded HTTP request had no answer in time",
              {{"node", to_node}, {"target", request.target.substr(0, 200)}});
    return unavailable(queued ? "the node that answers this request did not answer in time; try again in a few seconds"
                              : "this node cannot send to the other nodes now; try again in a few seconds");
}

void RedisBus::answer_http(HttpAnswerer answerer) {
    std::lock_guard lock(http_->answerer_mutex);
    http_->answerer = std::move(answerer);
}

void RedisBus::http_unreached(std::uint64_t id) {
    HttpCalls& calls = *http_;
    {
        std::lock_guard lock(calls.mutex);
        auto it = calls.waiting.find(id);
        if (it == calls.waiting.end() || it->second->answer) return;
        it->second->answer = unavailable("the node that answers this request (" + it->second->node +
                                         ") cannot be reached; try again in a few seconds");
    }
    calls.done.notify_all();
}

void RedisBus::stop_http_calls() {
    HttpCalls& calls = *http_;
    {
        std::lock_guard lock(calls.mutex);
        calls.stopping = true;
        for (auto& [id, call] : calls.waiting)
            if (!call->answer) call->answer = unavailable("this node is stopping");
    }
    calls.done.notify_all();
    answer_http(nullptr);
}

void RedisBus::on_http_message(const std::string& payload) {
    auto e = decode_http(payload);
    if (!e) {
        if (refused_.fetch_add(1) % 1000 == 0)
            log_event(LogLevel::WARN, "bus: a message between nodes was refused",
                      {{"error", e.error().message}, {"refused", std::int64_t(refused_.load())}});
        return;
    }
    if (e->kind == HttpEnvelope::Kind::ANSWER) {
        HttpCalls& calls = *http_;
        {
            std::lock_guard lock(calls.mutex);
            auto it = calls.waiting.find(e->id);
            // Not a call waiting here, or answered by a node it was not sent to: dropped.
            if (it == calls.waiting.end() || it->second->node != e->node || it->second->answer) return;
            it->second->answer = forwarded_answer(*e);
        }
        calls.done.notify_all();
        return;
    }
    // A request: answered by the answerer, whose reply goes back on the asker's channel.
    // The reply may come on any thread, after this node began to stop: under the calls'
    // lock, it queues nothing once stop() has begun (which takes that lock), so it
    // never reaches a bus that is gone.
    auto reply = [this, calls = http_, me = node(), channel = channel_of(e->node), id = e->id](HttpResponse r) {
        std::string answer = encode_http(http_answer_envelope(id, me, r));
        if (answer.size() > MaxAnswerBody) {
            const HttpResponse too_long{
                500, "application/json", error_json({"internal", "the answer is too long to send between the nodes", 500}), {}};
            answer = encode_http(http_answer_envelope(id, me, too_long));
        }
        std::lock_guard lock(calls->mutex);
        if (calls->stopping) return;
        {
            std::lock_guard out(out_mutex_);
            if (stopping_ || out_.size() >= MaxWaitingOut) return;
            Out o;
            o.channel = channel;
            o.payload = std::move(answer);
            out_.push_back(std::move(o));
        }
        out_wake_.notify_one();
    };
    std::lock_guard lock(http_->answerer_mutex);
    if (!http_->answerer) return reply(unavailable("this node does not answer other nodes' requests now"));
    http_->answerer(forwarded_request(*e), std::move(reply));
}

}  // namespace outpost::server::redis
