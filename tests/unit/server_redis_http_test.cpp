// Outpost — HTTP between nodes on the Redis bus (issue 26, "HTTP of the domains node" in
// docs/scaling.md): the "http" and "http_answer" envelopes written and read, hostile ones
// refused with what is wrong, and two RedisBus nodes on a real redis-server
// (tests/support): a request forwarded and answered, an answer that does not come in
// time, a node that is gone, forged answers and hostile requests on a node's channel.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "server/bus/redis/http_envelope.h"
#include "server/bus/redis/redis_bus.h"
#include "../support/eventually.h"
#include "../support/redis_server.h"

using namespace outpost::server;
using namespace outpost::server::redis;
using namespace std::chrono_literals;

namespace {

using outpost::test::eventually;

HttpRequest signed_in_post() {
    HttpRequest r("POST", "/api/v1/events/ab12/join?x=1", R"({"seat":"any"})", "203.0.113.9");
    r.cookie = "outpost_session=secret-token";  // read on the asking node, never sent
    r.session_token = "secret-token";
    r.origin = "https://chess.example";
    r.host = "chess.example";
    r.content_type = "application/json";
    r.secure = true;
    Account a;
    a.id = 42;
    a.name = "Anna";
    a.admin = true;
    r.account = a;
    return r;
}

std::unique_ptr<RedisBus> node(const outpost::test::RedisServer& redis, const std::string& name) {
    RedisBus::Options o;
    o.where = *Endpoint::parse(redis.url());
    o.node = name;
    o.lease = 900ms;
    o.watch_every = 50ms;
    auto bus = RedisBus::open(o);
    EXPECT_TRUE(bus.ok()) << (bus.ok() ? "" : bus.error().message);
    return bus.ok() ? std::move(*bus) : nullptr;
}

std::string header(const HttpResponse& r, const std::string& name) {
    for (const auto& [k, v] : r.headers)
        if (k == name) return v;
    return "";
}

std::string error_code(const HttpResponse& r) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") && j["error"].is_object() ? j["error"].value("code", "")
                                                                           : j.is_object() ? j.value("code", "") : "";
}

}  // namespace

TEST(HttpEnvelopeIssue26, ARequestAndItsAnswerAreReadBackAsWrittenWithoutTheCookie) {
    auto back = decode_http(encode_http(http_request_envelope(77, "node-b", signed_in_post())));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->kind, HttpEnvelope::Kind::REQUEST);
    EXPECT_EQ(back->id, 77u);
    EXPECT_EQ(back->node, "node-b");
    const HttpRequest q = forwarded_request(*back);
    EXPECT_EQ(q.method, "POST");
    EXPECT_EQ(q.target, "/api/v1/events/ab12/join?x=1");
    EXPECT_EQ(q.body, R"({"seat":"any"})");
    EXPECT_EQ(q.client, "203.0.113.9");
    EXPECT_EQ(q.origin, "https://chess.example");
    EXPECT_EQ(q.host, "chess.example");
    EXPECT_EQ(q.content_type, "application/json");
    EXPECT_TRUE(q.secure);
    ASSERT_TRUE(q.account.has_value());
    EXPECT_EQ(q.account->id, 42);
    EXPECT_EQ(q.account->name, "Anna");
    EXPECT_TRUE(q.account->admin);
    // The answering node never identifies again: no cookie, no session token crosses.
    EXPECT_TRUE(q.cookie.empty());
    EXPECT_TRUE(q.session_token.empty());
    EXPECT_EQ(encode_http(http_request_envelope(77, "node-b", signed_in_post())).find("secret-token"), std::string::npos);

    HttpRequest anonymous("GET", "/api/v1/simuls", "", "::1");
    back = decode_http(encode_http(http_request_envelope(1, "b", anonymous)));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(forwarded_request(*back).account.has_value());

    HttpResponse answer{201, "application/json", std::string(100'000, 'x'),
                        {{"Retry-After", "3"}, {"Set-Cookie", "a=b"}, {"Content-Length", "9"}, {"Location", "/x"}}};
    back = decode_http(encode_http(http_answer_envelope(9, "node-a", answer)));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->kind, HttpEnvelope::Kind::ANSWER);
    const HttpResponse r = forwarded_answer(*back);
    EXPECT_EQ(r.status, 201);
    EXPECT_EQ(r.body.size(), 100'000u);
    EXPECT_EQ(header(r, "Retry-After"), "3");
    EXPECT_EQ(header(r, "Location"), "/x");
    // The connection's own headers and cookies do not cross between nodes.
    EXPECT_EQ(header(r, "Set-Cookie"), "");
    EXPECT_EQ(header(r, "Content-Length"), "");
}

TEST(HttpEnvelopeIssue26, HostileHttpMessagesAreRefusedWithWhatIsWrong) {
    const std::string req = R"({"t":"http","id":5,"node":"b","method":"GET","client":"10.0.0.1",)";
    const std::string ans = R"({"t":"http_answer","id":5,"node":"a","type":"application/json",)";
    const std::string long_body(MaxForwardedBody + 1, 'x');
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "not a JSON object"},
        {R"({"t":"http"})", "\"id\""},
        {R"({"t":"http","id":0,"node":"b"})", "range"},
        {R"({"t":"http","id":-1,"node":"b"})", "range"},
        {R"({"t":"http","id":18446744073709551615,"node":"b"})", "range"},
        {R"({"t":"http","id":"5","node":"b"})", "not an integer"},
        {R"({"t":"http","id":5,"node":"a b"})", "name"},
        {R"({"t":"http_x","id":5,"node":"b"})", "unknown kind"},
        {req + R"("target":"/x","method":"BREW"})", "method"},
        {R"({"t":"http","id":5,"node":"b","method":"GET","client":"1.2.3.4","target":"x"})", "not a path"},
        {req + R"("target":"/a b"})", "not a path"},
        {req + R"("target":"/a\r\nX-Evil: 1"})", "not a path"},
        {req + R"("target":"/)" + std::string(MaxForwardedTarget, 'a') + "\"}", "longer"},
        {req + R"("target":"/x","body":")" + long_body + "\"}", "longer"},
        {R"({"t":"http","id":5,"node":"b","method":"GET","target":"/x"})", "client"},
        {req + R"("target":"/x","origin":"https://a\r\nb"})", "control"},
        {req + R"("target":"/x","secure":1})", "true or false"},
        {req + R"("target":"/x","account":5})", "not an object"},
        {req + R"("target":"/x","account":{"id":0,"name":"x"}})", "account"},
        {req + R"("target":"/x","account":{"id":3}})", "account"},
        {req + R"("target":"/x","account":{"id":3,"name":""}})", "account"},
        {ans + R"("status":99})", "range"},
        {ans + R"("status":600})", "range"},
        {R"({"t":"http_answer","id":5,"node":"a","status":200})", "type"},
        {ans + R"("status":200,"headers":{"a":"b"}})", "not a list"},
        {ans + R"("status":200,"headers":[["a"]]})", "[name, value]"},
        {ans + R"("status":200,"headers":[["a b","c"]]})", "name"},
        {ans + R"("status":200,"headers":[["X","a\r\nSet-Cookie: s=1"]]})", "control"},
        {ans + R"("status":200,"headers":[["Set-Cookie","s=1"]]})", "connection"},
        {ans + R"("status":200,"headers":[["transfer-encoding","chunked"]]})", "connection"},
        {ans + R"("status":200,"headers":[)" + [] {
             std::string h;
             for (int i = 0; i < 17; ++i) h += std::string(i ? "," : "") + R"(["X","1"])";
             return h;
         }() + "]}",
         "more than"},
    };
    for (const auto& [text, why] : bad) {
        auto e = decode_http(text);
        ASSERT_FALSE(e.ok()) << text.substr(0, 100);
        EXPECT_NE(e.error().message.find(why), std::string::npos) << text.substr(0, 100) << " -> " << e.error().message;
    }
    EXPECT_TRUE(is_http_payload(encode_http(http_request_envelope(1, "b", signed_in_post()))));
    // A game's message whose text looks like one is not: quotes inside strings are escaped.
    EXPECT_FALSE(is_http_payload(R"({"t":"msg","text":"{\"t\":\"http\"}"})"));
}

TEST(RedisHttpIssue26, ARequestIsAnsweredByTheOtherNodeOnItsPoolWithTheAccountTheAskerIdentified) {
    outpost::test::RedisServer redis;
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    std::mutex mu;
    std::vector<HttpRequest> seen;
    std::vector<std::thread> pool;  // the answering node's request pool, as the edge's
    a->answer_http([&](HttpRequest q, ClusterBus::HttpReply reply) {
        std::lock_guard lock(mu);
        seen.push_back(q);
        pool.emplace_back([q, reply] {
            reply(HttpResponse{q.method == "POST" ? 201 : 200, "application/json",
                               R"({"served":")" + q.target + R"(","by":")" + (q.account ? q.account->name : "-") + "\"}",
                               {{"Retry-After", "1"}}});
        });
    });
    const HttpResponse r = b->forward_http("node-a", signed_in_post(), 5s);
    EXPECT_EQ(r.status, 201);
    EXPECT_EQ(r.body, R"({"served":"/api/v1/events/ab12/join?x=1","by":"Anna"})");
    EXPECT_EQ(header(r, "Retry-After"), "1");
    {
        std::lock_guard lock(mu);
        ASSERT_EQ(seen.size(), 1u);
        EXPECT_TRUE(seen[0].cookie.empty());
        EXPECT_EQ(seen[0].client, "203.0.113.9");
        ASSERT_TRUE(seen[0].account);
        EXPECT_EQ(seen[0].account->id, 42);
    }
    // Many at once, from several threads: each gets its own answer.
    std::vector<std::future<HttpResponse>> many;
    for (int i = 0; i < 20; ++i)
        many.push_back(std::async(std::launch::async, [&b, i] {
            return b->forward_http("node-a", HttpRequest("GET", "/api/v1/simuls/s" + std::to_string(i), "", "::1"), 5s);
        }));
    for (int i = 0; i < 20; ++i) {
        const HttpResponse one = many[i].get();
        EXPECT_EQ(one.status, 200);
        EXPECT_EQ(one.body, R"({"served":"/api/v1/simuls/s)" + std::to_string(i) + R"(","by":"-"})");
    }
    a->answer_http(nullptr);
    for (auto& t : pool) t.join();
    // No answerer on the other node: 503 unavailable, at once.
    const HttpResponse none = b->forward_http("node-a", signed_in_post(), 5s);
    EXPECT_EQ(none.status, 503);
    EXPECT_EQ(error_code(none), "unavailable");
}

TEST(RedisHttpIssue26, NoAnswerInTimeOrANodeThatIsGoneIs503UnavailableNeverAHang) {
    outpost::test::RedisServer redis;
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    std::mutex mu;
    std::vector<ClusterBus::HttpReply> unanswered;
    a->answer_http([&](HttpRequest, ClusterBus::HttpReply reply) {
        std::lock_guard lock(mu);
        unanswered.push_back(std::move(reply));  // a node too busy to answer
    });
    auto started = std::chrono::steady_clock::now();
    HttpResponse r = b->forward_http("node-a", signed_in_post(), 300ms);
    auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(error_code(r), "unavailable");
    EXPECT_EQ(header(r, "Retry-After"), "2");
    EXPECT_GE(took, 300ms);
    EXPECT_LT(took, 3s);
    {  // its late answer is dropped: the next call gets its own
        std::lock_guard lock(mu);
        ASSERT_EQ(unanswered.size(), 1u);
        unanswered[0](HttpResponse{200, "application/json", "late", {}});
    }
    std::thread answer_next([&] {
        ASSERT_TRUE(eventually([&] {
            std::lock_guard lock(mu);
            return unanswered.size() == 2;
        }));
        std::lock_guard lock(mu);
        unanswered[1](HttpResponse{200, "application/json", "second", {}});
    });
    r = b->forward_http("node-a", signed_in_post(), 5s);
    answer_next.join();
    EXPECT_EQ(r.body, "second");

    // A node nobody listens for (gone, or never was): the publication reaches nobody.
    started = std::chrono::steady_clock::now();
    r = b->forward_http("node-gone", signed_in_post(), 10s);
    took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(r.status, 503);
    EXPECT_NE(r.body.find("node-gone"), std::string::npos) << r.body;
    EXPECT_LT(took, 2s);
    // The answering node stopped: its calls end, and a stopped node forwards nothing.
    a.reset();
    r = b->forward_http("node-a", signed_in_post(), 10s);
    EXPECT_EQ(r.status, 503);
    b->stop();
    r = b->forward_http("node-a", signed_in_post(), 10s);
    EXPECT_EQ(r.status, 503);
}

TEST(RedisHttpIssue26, ForgedAnswersAreDroppedAndHostileRequestsRefusedAndTheNodeGoesOn) {
    outpost::test::RedisServer redis;
    auto b = node(redis, "node-b");
    ASSERT_TRUE(b);
    // A stand-in for node x, listening on its channel with the test's own subscriber.
    std::mutex mu;
    std::vector<std::string> got;
    RedisSubscriber x(*Endpoint::parse(redis.url()), [&](const std::string&, const std::string& payload) {
        std::lock_guard lock(mu);
        got.push_back(payload);
    });
    x.subscribe("outpost:node:node-x");
    ASSERT_TRUE(x.wait_subscribed(3s));
    auto call = std::async(std::launch::async, [&] { return b->forward_http("node-x", signed_in_post(), 5s); });
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(mu);
        return got.size() == 1;
    }));
    std::string sent;
    {
        std::lock_guard lock(mu);
        sent = got[0];
    }
    EXPECT_EQ(sent.find("secret-token"), std::string::npos) << "the session cookie crossed to another node";
    auto request = decode_http(sent);
    ASSERT_TRUE(request.ok()) << request.error().message;
    RedisClient raw(*Endpoint::parse(redis.url()));
    const auto answer_from = [&](const std::string& who, const std::string& body) {
        return encode_http(http_answer_envelope(request->id, who, HttpResponse{200, "application/json", body, {}}));
    };
    // An answer from a node it was not sent to, one with another call's number, junk:
    // none is taken.
    ASSERT_TRUE(publish(raw, "outpost:node:node-b", answer_from("node-c", "forged")).ok());
    ASSERT_TRUE(publish(raw, "outpost:node:node-b",
                        encode_http(http_answer_envelope(request->id + 1, "node-x", HttpResponse{200, "a", "other", {}})))
                    .ok());
    const auto before = b->refused_messages();
    for (const std::string junk :
         {R"({"t":"http_answer","id":1})", R"({"t":"http","id":1,"node":"node-x","method":"GET","target":"nope"})",
          R"({"t":"http_answer","id":1,"node":"node-x","status":200,"type":"a","headers":[["Set-Cookie","s=1"]]})"})
        ASSERT_TRUE(publish(raw, "outpost:node:node-b", junk).ok());
    EXPECT_TRUE(eventually([&] { return b->refused_messages() >= before + 3; }));
    EXPECT_EQ(call.wait_for(100ms), std::future_status::timeout);
    ASSERT_TRUE(publish(raw, "outpost:node:node-b", answer_from("node-x", "real")).ok());
    const HttpResponse r = call.get();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "real");

    // A well-formed request from a stranger reaches the answerer with only what the
    // envelope says (no cookie to identify from); with no answerer it is answered 503.
    std::atomic<int> asked{0};
    b->answer_http([&](HttpRequest q, ClusterBus::HttpReply reply) {
        EXPECT_TRUE(q.cookie.empty());
        ++asked;
        reply(HttpResponse{204, "application/json", "", {}});
    });
    ASSERT_TRUE(publish(raw, "outpost:node:node-b", encode_http(http_request_envelope(5, "node-x", signed_in_post()))).ok());
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(mu);
        return got.size() == 2;
    }));
    {
        std::lock_guard lock(mu);
        auto back = decode_http(got[1]);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(back->kind, HttpEnvelope::Kind::ANSWER);
        EXPECT_EQ(back->id, 5u);
        EXPECT_EQ(back->node, "node-b");
        EXPECT_EQ(back->status, 204);
    }
    EXPECT_EQ(asked.load(), 1);
}
