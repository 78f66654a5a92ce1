// Outpost — the metrics registry and its text exposition.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/observe/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "server/observe/process_stats.h"

namespace outpost::server {

Histogram::Histogram(std::initializer_list<double> bounds) {
    for (double b : bounds)
        if (size_ < MaxBuckets && (size_ == 0 || b > bounds_[size_ - 1])) bounds_[size_++] = b;
}

void Histogram::observe(double seconds) {
    if (!(seconds >= 0)) seconds = 0;  // NaN and a clock that went back count as 0
    const size_t i = size_t(std::lower_bound(bounds_.begin(), bounds_.begin() + long(size_), seconds) - bounds_.begin());
    counts_[i].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(seconds, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
    Snapshot s;
    s.bounds.assign(bounds_.begin(), bounds_.begin() + long(size_));
    std::uint64_t running = 0;
    for (size_t i = 0; i <= size_; ++i) {
        running += counts_[i].load(std::memory_order_relaxed);
        s.cumulative.push_back(running);
    }
    s.count = running;
    s.sum = sum_.load(std::memory_order_relaxed);
    return s;
}

LabeledCounter::~LabeledCounter() {
    for (Node* n = head_.load(); n;) {
        Node* next = n->next;
        delete n;
        n = next;
    }
}

LabeledCounter::Node* LabeledCounter::find(std::string_view label) const {
    for (Node* n = head_.load(std::memory_order_acquire); n; n = n->next)
        if (n->label == label) return n;
    return nullptr;
}

void LabeledCounter::inc(std::string_view label, std::uint64_t n) {
    Node* const head = head_.load(std::memory_order_acquire);
    for (Node* m = head; m; m = m->next)
        if (m->label == label) return m->counter.inc(n);
    if (size_.load(std::memory_order_relaxed) >= MaxValues && label != "other") return inc("other", n);
    auto* node = new Node{std::string(label), {}, head};
    Node* checked = head;  // the list from here on has been searched
    while (!head_.compare_exchange_weak(node->next, node, std::memory_order_release, std::memory_order_acquire)) {
        // Another thread pushed meanwhile (node->next is the new head): maybe this label.
        for (Node* m = node->next; m != checked; m = m->next)
            if (m->label == label) {
                delete node;
                return m->counter.inc(n);
            }
        checked = node->next;
    }
    size_.fetch_add(1, std::memory_order_relaxed);
    node->counter.inc(n);
}

std::uint64_t LabeledCounter::value(std::string_view label) const {
    const Node* n = find(label);
    return n ? n->counter.value() : 0;
}

std::vector<std::pair<std::string, std::uint64_t>> LabeledCounter::values() const {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    for (Node* n = head_.load(std::memory_order_acquire); n; n = n->next) out.emplace_back(n->label, n->counter.value());
    std::reverse(out.begin(), out.end());
    return out;
}

Metrics& metrics() {
    static Metrics m;
    return m;
}

std::string format_metric_value(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(std::int64_t(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string escape_label_value(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

namespace {

struct TextWriter {
    std::string out;
    void head(std::string_view name, std::string_view type, std::string_view help) {
        out.append("# HELP ").append(name).append(" ").append(help).append("\n");
        out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
    }
    void sample(std::string_view name, double v, std::string_view labels = {}) {
        out.append(name);
        if (!labels.empty()) out.append("{").append(labels).append("}");
        out.append(" ").append(format_metric_value(v)).append("\n");
    }
    void gauge(std::string_view name, std::string_view help, double v) {
        head(name, "gauge", help);
        sample(name, v);
    }
    void counter(std::string_view name, std::string_view help, double v) {
        head(name, "counter", help);
        sample(name, v);
    }
    void labeled(std::string_view name, std::string_view help, std::string_view label, const LabeledCounter& c) {
        head(name, "counter", help);
        for (const auto& [value, n] : c.values())
            sample(name, double(n), std::string(label) + "=\"" + escape_label_value(value) + "\"");
    }
    void histogram(std::string_view name, std::string_view help, const Histogram& h) {
        const Histogram::Snapshot s = h.snapshot();
        head(name, "histogram", help);
        const std::string bucket = std::string(name) + "_bucket";
        for (size_t i = 0; i < s.bounds.size(); ++i)
            sample(bucket, double(s.cumulative[i]), "le=\"" + format_metric_value(s.bounds[i]) + "\"");
        sample(bucket, double(s.cumulative.back()), "le=\"+Inf\"");
        sample(std::string(name) + "_sum", s.sum);
        sample(std::string(name) + "_count", double(s.count));
    }
};

}  // namespace

std::string render_metrics(const Metrics& m, const std::vector<Sampled>& sampled) {
    TextWriter w;
    for (const Sampled& s : sampled) w.gauge(s.name, s.help, s.read ? s.read() : 0);
    w.gauge("outpost_connections", "Open TCP connections on the public port (HTTP and WebSocket).",
            double(m.connections.value()));
    w.gauge("outpost_websockets", "Open WebSocket sessions (games, the lobby, simuls).", double(m.websockets.value()));
    w.counter("outpost_moves_total", "Moves stored, the players' and the robot's.", double(m.moves_total.value()));
    w.histogram("outpost_move_latency_seconds",
                "A player's move, from the server receiving it to its acknowledgement leaving for the player "
                "(after the move is durable).",
                m.move_latency);
    w.histogram("outpost_storage_write_seconds", "One group-commit transaction of the storage writer.", m.storage_write);
    w.counter("outpost_http_requests_total", "HTTP requests answered on the public port.", double(m.http_requests.value()));
    w.labeled("outpost_limit_refusals_total", "Requests, messages or connections refused by a limit, by the limit.", "kind",
              m.limit_refusals);
    w.labeled("outpost_errors_total", "Error messages sent to clients, by error code.", "code", m.errors);
    if (auto p = read_process_stats()) {
        w.counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", p->cpu_seconds);
        w.gauge("process_open_fds", "Number of open file descriptors.", p->open_fds);
        w.gauge("process_max_fds", "Maximum number of open file descriptors.", p->max_fds);
        w.gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", p->virtual_bytes);
        w.gauge("process_resident_memory_bytes", "Resident memory size in bytes.", p->resident_bytes);
        w.gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
                p->start_time_seconds);
    }
    return std::move(w.out);
}

}  // namespace outpost::server
