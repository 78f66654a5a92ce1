// Outpost — the storage writer: group commit off the hub's thread (SPEC D3).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The hub hands each write to the writer with what to do once it is durable (send the
// move's acknowledgement and broadcast). A thread of its own takes everything queued
// so far as one batch, writes it in one transaction (one fsync for many games), and
// then runs the batch's completions in the order the writes came: the order of every
// game's messages is kept, and a slow fsync holds back one batch, never the hub.
// Inline mode (tests) writes and completes at once on the caller's thread.
//
// A commit window (`window` > 0) makes a batch begin no sooner than that long after the
// one before began: while moves come faster than that, each transaction carries more of
// them (PostgreSQL's commit_delay, on our side of the connection). A transaction costs
// PostgreSQL about the same CPU whatever it holds, so on a busy server this trades a few
// milliseconds of a move's acknowledgement for fewer, larger transactions. A write that
// comes after a quiet spell is written at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "server/stores/game_store.h"

namespace outpost::server {

class StorageWriter {
public:
    // ok: the write is durable; an error: it is not (and never will be).
    using Done = std::function<void(const Result<bool>& ok)>;

    StorageWriter(Storage* storage, bool threaded, size_t max_batch = 512,
                  std::chrono::microseconds window = std::chrono::microseconds(0));
    ~StorageWriter();  // writes what is queued, then stops
    StorageWriter(const StorageWriter&) = delete;
    StorageWriter& operator=(const StorageWriter&) = delete;

    // Queues a write; `done` runs once it is durable (or failed).
    void submit(GameWrite write, Done done);
    // Runs `done` after every write queued before it is done (no write of its own):
    // for messages that must not overtake acknowledgements still on their way.
    void after_pending(Done done);
    // Waits until everything queued so far is done.
    void flush();
    // Batches written so far and the largest (for tests and the benchmark).
    size_t batches() const;
    size_t largest_batch() const;

    // For /readyz (docs/protocol.md, "Operations"): whether the last batch was written,
    // how long the batch being written has taken so far, and the writes waiting.
    struct Health {
        bool last_write_ok = true;
        std::string last_error;  // of the last batch, when it failed
        double writing_seconds = 0;
        size_t queued = 0;
    };
    Health health() const;

private:
    struct Item {
        std::optional<GameWrite> write;
        Done done;
    };
    void run();

    Storage* storage_;
    const bool threaded_;
    const size_t max_batch_;
    const std::chrono::microseconds window_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<Item> queue_;
    bool busy_ = false, stopping_ = false;
    bool in_window_ = false;  // waiting for the window's end (submit() need not wake it)
    std::chrono::steady_clock::time_point busy_since_, last_begun_;
    bool last_ok_ = true;
    std::string last_error_;
    size_t batches_ = 0, largest_ = 0;
    std::thread thread_;
};

}  // namespace outpost::server
