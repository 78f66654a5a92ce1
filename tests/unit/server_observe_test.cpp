// Outpost — issue 27 item 4: the metrics registry (lock-free counters, histograms and
// labeled counters, the Prometheus text format), the process_* parsing, the log's lines
// (text and JSON, one line whatever a value holds) and the redaction of secrets from
// logged request targets; --metrics-listen's address.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/edge/listen_address.h"
#include "server/observe/log.h"
#include "server/observe/metrics.h"
#include "server/observe/process_stats.h"

namespace outpost::server {
namespace {

TEST(Issue27Metrics, HistogramCountsInTheBucketOfItsUpperBoundAndCumulates) {
    Histogram h{0.001, 0.01, 0.1};
    for (double v : {0.0005, 0.001, 0.002, 0.05, 0.5, 7.0}) h.observe(v);
    h.observe(-1);  // a clock that went back: 0
    const auto s = h.snapshot();
    ASSERT_EQ(s.bounds.size(), 3u);
    // le=0.001: 0.0005, 0.001 and the 0; le=0.01: +0.002; le=0.1: +0.05; +Inf: all 7.
    EXPECT_EQ(s.cumulative, (std::vector<std::uint64_t>{3, 4, 5, 7}));
    EXPECT_EQ(s.count, 7u);
    EXPECT_NEAR(s.sum, 0.0005 + 0.001 + 0.002 + 0.05 + 0.5 + 7.0, 1e-9);
}

TEST(Issue27Metrics, LabeledCounterIsExactUnderThreadsAndKeepsEachLabelOnce) {
    LabeledCounter c;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&c] {
            for (int i = 0; i < 20000; ++i) c.inc(i % 2 ? "http" : std::to_string(i % 10));
        });
    for (auto& t : threads) t.join();
    const auto values = c.values();
    std::set<std::string> labels;
    std::uint64_t total = 0;
    for (const auto& [label, n] : values) {
        EXPECT_TRUE(labels.insert(label).second) << "label twice: " << label;
        total += n;
    }
    EXPECT_EQ(labels.size(), 6u);  // http, 0, 2, 4, 6, 8
    EXPECT_EQ(total, 4u * 20000);
    EXPECT_EQ(c.value("http"), 4u * 10000);
    EXPECT_EQ(c.value("4"), 4u * 2000);
}

TEST(Issue27Metrics, LabeledCounterBoundsItsLabels) {
    LabeledCounter c;
    for (size_t i = 0; i < LabeledCounter::MaxValues + 10; ++i) c.inc("code" + std::to_string(i));
    EXPECT_LE(c.values().size(), LabeledCounter::MaxValues + 1);
    EXPECT_EQ(c.value("other"), 10u);
}

TEST(Issue27Metrics, TextFormatHasHelpTypeAndHistogramSeries) {
    Metrics m;
    m.moves_total.inc(3);
    m.move_latency.observe(0.002);
    m.errors.inc("illegal_move");
    m.limit_refusals.inc("a\"b\\c\nd");  // escaped, never a line of its own
    const std::string text =
        render_metrics(m, {{"outpost_games_live", "Games.", [] { return 42.0; }}});
    EXPECT_NE(text.find("# TYPE outpost_games_live gauge\noutpost_games_live 42\n"), std::string::npos) << text;
    EXPECT_NE(text.find("# TYPE outpost_moves_total counter\noutpost_moves_total 3\n"), std::string::npos);
    EXPECT_NE(text.find("# TYPE outpost_move_latency_seconds histogram\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_move_latency_seconds_bucket{le=\"0.001\"} 0\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_move_latency_seconds_bucket{le=\"0.0025\"} 1\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_move_latency_seconds_bucket{le=\"+Inf\"} 1\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_move_latency_seconds_count 1\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_errors_total{code=\"illegal_move\"} 1\n"), std::string::npos);
    EXPECT_NE(text.find("outpost_limit_refusals_total{kind=\"a\\\"b\\\\c\\nd\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nprocess_resident_memory_bytes "), std::string::npos);
    EXPECT_NE(text.find("\nprocess_start_time_seconds "), std::string::npos);
    // Every line is a comment or a sample: name, optional labels, a value.
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        ASSERT_NE(end, std::string::npos) << "the last line has no newline";
        const std::string line = text.substr(start, end - start);
        EXPECT_TRUE(line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0 ||
                    (!line.empty() && (std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_')))
            << line;
        start = end + 1;
    }
    EXPECT_EQ(format_metric_value(0.25), "0.25");
    EXPECT_EQ(format_metric_value(1e20), "1e+20");
}

TEST(Issue27Metrics, ProcessStatParsingTakesTheNameUpToTheLastParenthesis) {
    // pid (name) state ppid ... utime=14 stime=15 ... starttime=22 vsize=23 rss=24
    std::string stat = "123 (a) b (c) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1 0 1000 4096000 300 18446744073709551615";
    auto s = parse_process_stat(stat, 1'700'000'000, 100, 4096);
    ASSERT_TRUE(s);
    EXPECT_DOUBLE_EQ(s->cpu_seconds, 3.0);
    EXPECT_DOUBLE_EQ(s->start_time_seconds, 1'700'000'010.0);
    EXPECT_DOUBLE_EQ(s->virtual_bytes, 4096000);
    EXPECT_DOUBLE_EQ(s->resident_bytes, 300.0 * 4096);
    EXPECT_FALSE(parse_process_stat("123 (x) S 1 2", 0, 100, 4096));
    EXPECT_FALSE(parse_process_stat("garbage", 0, 100, 4096));
    auto real = read_process_stats();
    ASSERT_TRUE(real);
    EXPECT_GT(real->resident_bytes, 0);
    EXPECT_GT(real->open_fds, 0);
    EXPECT_GE(real->max_fds, real->open_fds);
}

TEST(Issue27Log, JsonLinesCarryTheFieldsAndStayOneLine) {
    const std::string line = format_log_line(LogFormat::JSON, 1'700'000'000'123, LogLevel::WARN, "http",
                                             {{"request_id", "r1"}, {"client", "10.0.0.1"}, {"status", 404},
                                              {"ms", 1.5}, {"path", "/x\n{\"level\":\"error\"}"}});
    ASSERT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["ts"], "2023-11-14T22:13:20.123Z");
    EXPECT_EQ(j["level"], "warn");
    EXPECT_EQ(j["msg"], "http");
    EXPECT_EQ(j["request_id"], "r1");
    EXPECT_EQ(j["status"], 404);
    EXPECT_EQ(j["ms"], 1.5);
    EXPECT_EQ(j["path"], "/x\n{\"level\":\"error\"}");
    // Bad UTF-8 from a client is replaced, not a crash.
    EXPECT_NO_THROW(format_log_line(LogFormat::JSON, 0, LogLevel::INFO, "m", {{"path", std::string("/\xff\xfe")}}));
}

TEST(Issue27Log, TextLinesQuoteWhatCouldForgeAFieldOrALine) {
    const std::string line = format_log_line(LogFormat::TEXT, 0, LogLevel::INFO, "http",
                                             {{"path", "/a b\nINFO forged=1"}, {"status", 200}, {"client", "::1"}});
    EXPECT_EQ(line, "1970-01-01T00:00:00.000Z INFO http path=\"/a b\\nINFO forged=1\" status=200 client=::1\n");
}

TEST(Issue27Log, LevelsAndFormatsAreReadFromTheirNames) {
    EXPECT_EQ(parse_log_level("debug"), LogLevel::DEBUG);
    EXPECT_EQ(parse_log_level("error"), LogLevel::ERROR);
    EXPECT_FALSE(parse_log_level("verbose"));
    EXPECT_EQ(parse_log_format("json"), LogFormat::JSON);
    EXPECT_FALSE(parse_log_format("xml"));
}

TEST(Issue27Log, SecretQueryParametersAreRedacted) {
    EXPECT_EQ(redact_target("/api/v1/ws?game=abc&seat=SECRET"), "/api/v1/ws?game=abc&seat=REDACTED");
    EXPECT_EQ(redact_target("/api/v1/simul?id=s1&key=SECRET"), "/api/v1/simul?id=s1&key=REDACTED");
    EXPECT_EQ(redact_target("/x?token=SECRET&b=1"), "/x?token=REDACTED&b=1");
    // The server decodes names: so does the redaction.
    EXPECT_EQ(redact_target("/api/v1/ws?game=abc&se%61t=SECRET"), "/api/v1/ws?game=abc&se%61t=REDACTED");
    EXPECT_EQ(redact_target("/api/v1/ws?SEAT=SECRET"), "/api/v1/ws?SEAT=REDACTED");
    EXPECT_EQ(redact_target("/api/v1/games/abc"), "/api/v1/games/abc");
    EXPECT_EQ(redact_target("/p?seat"), "/p?seat");
    EXPECT_EQ(redact_target("/p?&&seat=S&"), "/p?&&seat=REDACTED&");
}

TEST(Issue27MetricsListen, AddressesAreReadOrRefusedWithAReason) {
    std::string why;
    auto a = parse_listen_address("127.0.0.1:9464", why);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->host, "127.0.0.1");
    EXPECT_EQ(a->port, 9464);
    a = parse_listen_address("[::1]:0", why);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->host, "::1");
    a = parse_listen_address("localhost:9464", why);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->host, "127.0.0.1");
    for (const char* bad : {"9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:9x", "example.org:9464",
                            "::1:9464", "[::1]9464", ""}) {
        why.clear();
        EXPECT_FALSE(parse_listen_address(bad, why)) << bad;
        EXPECT_FALSE(why.empty()) << bad;
    }
}

}  // namespace
}  // namespace outpost::server
