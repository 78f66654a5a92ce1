// Outpost — the server's metrics (issue 27 item 4; docs/operations: `--metrics-listen`):
// counters, gauges and histograms that any room counts into, written out in the
// Prometheus text format (version 0.0.4) by the metrics listener of the edge.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Written here rather than taken from a library: Debian 12 has no C++ Prometheus
// client (prometheus-cpp is not packaged), and what the server needs is small. Every
// metric is lock-free on the counting side (one relaxed atomic add, a histogram a
// bucket search and three adds), so counting a move costs nothing next to the move;
// only the scrape, a few times a minute, walks everything. Values read during a
// scrape are each exact but not taken at one instant (a histogram's _count is the
// sum of its buckets as read, so that the two always agree).
//
// One registry per process, as there is one process (the process_* metrics are its
// own too): rooms reach it through metrics(), with no wiring through constructors.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace outpost::server {

class Counter {
public:
    void inc(std::uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
    std::uint64_t value() const { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> value_{0};
};

class Gauge {
public:
    void add(std::int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
    void set(std::int64_t v) { value_.store(v, std::memory_order_relaxed); }
    std::int64_t value() const { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::int64_t> value_{0};
};

// Observations in seconds, counted in fixed buckets (upper bounds, ascending; +Inf
// is implicit).
class Histogram {
public:
    static constexpr size_t MaxBuckets = 24;
    explicit Histogram(std::initializer_list<double> bounds);
    void observe(double seconds);
    struct Snapshot {
        std::vector<double> bounds;
        std::vector<std::uint64_t> cumulative;  // one per bound, then +Inf
        double sum = 0;
        std::uint64_t count = 0;
    };
    Snapshot snapshot() const;

private:
    std::array<double, MaxBuckets> bounds_{};
    size_t size_ = 0;
    std::array<std::atomic<std::uint64_t>, MaxBuckets + 1> counts_{};
    std::atomic<double> sum_{0};
};

// A counter by the value of one label. Values are added on first use and never
// removed: a lock-free list, pushed at its head. At most MaxValues values; beyond, the
// value "other" (a label's values come from the server's own code, never from a
// client, but a bound keeps a bug from growing the scrape without end).
class LabeledCounter {
public:
    static constexpr size_t MaxValues = 64;
    LabeledCounter() = default;
    LabeledCounter(const LabeledCounter&) = delete;
    LabeledCounter& operator=(const LabeledCounter&) = delete;
    ~LabeledCounter();
    void inc(std::string_view label, std::uint64_t n = 1);
    std::uint64_t value(std::string_view label) const;
    // Every label with its value, in the order they were first counted.
    std::vector<std::pair<std::string, std::uint64_t>> values() const;

private:
    struct Node {
        std::string label;
        Counter counter;
        Node* next = nullptr;
    };
    Node* find(std::string_view label) const;
    std::atomic<Node*> head_{nullptr};
    std::atomic<size_t> size_{0};
};

// What the server counts. Gauges that are a state of some part (games live, queues,
// the WAL's size) are sampled at scrape time instead (Sampled below).
struct Metrics {
    Gauge connections;   // open TCP connections on the public port (HTTP and WebSocket)
    Gauge websockets;    // of them, WebSocket sessions
    Counter moves_total;  // moves stored (players' and robots')
    // A player's move: from the hub receiving it to its acknowledgement being handed to
    // the connection (after the group commit made it durable, D3).
    Histogram move_latency{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
    // One group-commit transaction of the storage writer (stores/writer.h).
    Histogram storage_write{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
    Counter http_requests;
    LabeledCounter limit_refusals;  // {kind}: which limit refused (docs/protocol.md, "Limits")
    LabeledCounter errors;          // {code}: error messages sent (docs/protocol.md, error codes)
};

Metrics& metrics();

// A gauge read when the metrics are written: a part's own state.
struct Sampled {
    std::string name, help;
    std::function<double()> read;
};

// The whole text exposition: the Metrics, the sampled gauges, and process_*.
std::string render_metrics(const Metrics& m, const std::vector<Sampled>& sampled);

// Pieces of the exposition format, for the renderer and its tests.
std::string format_metric_value(double v);
std::string escape_label_value(std::string_view v);

}  // namespace outpost::server
