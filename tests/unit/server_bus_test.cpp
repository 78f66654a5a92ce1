// Outpost — the bus between connections and the rooms (server/bus/bus.h): addresses,
// routing, the seat kept from the join, and the order of delivery through it (an
// acknowledgement never before its move is durable, nor overtaken; nothing for a
// connection that has left; an error for an address nobody serves).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "../support/counted_token.h"
#include "server/bus/in_process_bus.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

// A store whose writes wait at a gate: a slow fsync, under the test's control.
class GatedStore final : public Storage {
public:
    explicit GatedStore(std::unique_ptr<Storage> inner) : inner_(std::move(inner)) {}
    Result<bool> write(const std::vector<GameWrite>& batch) override {
        std::unique_lock lock(mutex_);
        ++waiting_;
        cv_.notify_all();
        cv_.wait(lock, [this] { return open_; });
        --waiting_;
        lock.unlock();
        return inner_->write(batch);
    }
    Result<std::optional<StoredGame>> load_game(const std::string& id) override { return inner_->load_game(id); }
    Result<std::vector<StoredGame>> load_live_games() override { return inner_->load_live_games(); }
    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& t, int limit) override {
        return inner_->games_for_tokens(t, limit);
    }
    void set_open(bool open) {
        std::lock_guard lock(mutex_);
        open_ = open;
        cv_.notify_all();
    }
    void wait_for_writer() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return waiting_ > 0; });
    }

private:
    std::unique_ptr<Storage> inner_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool open_ = true;
    int waiting_ = 0;
};

// A connection's end: every message, in the order delivered (from any thread).
struct Inbox : Subscriber {
    std::mutex mutex;
    std::vector<json> messages;
    void deliver(std::shared_ptr<const std::string> m) override {
        std::lock_guard lock(mutex);
        messages.push_back(json::parse(*m));
    }
    std::vector<json> all() {
        std::lock_guard lock(mutex);
        return messages;
    }
    std::vector<std::string> types() {
        std::vector<std::string> t;
        for (const json& j : all()) t.push_back(j.value("t", ""));
        return t;
    }
    size_t count(const std::string& type) {
        size_t n = 0;
        for (const auto& t : types()) n += t == type;
        return n;
    }
};

Credentials with_token(std::string_view token) {
    Credentials c;
    c.token = token;
    return c;
}

// A directory that places every game on another node.
struct ElsewhereDirectory final : GameDirectory {
    std::string_view owner_of(std::string_view) const override { return "node-b"; }
    std::string_view this_node() const override { return "node-a"; }
};

struct BusFixture : ::testing::Test {
    Millis now = 1'000'000;
    int tokens = 0;
    std::string path;
    std::unique_ptr<GatedStore> store;
    std::unique_ptr<Hub> hub;
    InProcessBus bus;
    CreatedGame game;

    void SetUp() override {
        path = (std::filesystem::temp_directory_path() /
                ("outpost-bus-test-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                   .string();
        std::filesystem::remove(path);
        store = std::make_unique<GatedStore>(std::move(Storage::open(path).value()));
        HubEnv env;
        env.monotonic_ms = [this] { return now; };
        env.wall_ms = [this] { return 1'700'000'000'000 + now; };
        env.random_token = [this](int len) {
            return outpost::test::counted_token('b', ++tokens, len, 'z');
        };
        env.inline_writes = false;  // the writer's own thread, as in `outpost serve`
        hub = std::make_unique<Hub>(env, store.get());
        bus.serve(Topic::GAME, hub.get());
        auto made = hub->create_game(R"({"opponent":"invite","color":"white"})");
        ASSERT_TRUE(made.ok());
        game = made.value();
    }
    void TearDown() override {
        store->set_open(true);
        hub.reset();
        store.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
    std::shared_ptr<Inbox> join(const std::string& token, Seat expect) {
        auto who = std::make_shared<Inbox>();
        auto seat = bus.join(Address::game(game.id), who, with_token(token));
        EXPECT_TRUE(seat.ok());
        if (seat.ok()) {
            EXPECT_EQ(*seat, expect);
        }
        return who;
    }
    void send(Inbox& from, const json& msg) { bus.send(Address::game(game.id), from, msg.dump()); }
};

}  // namespace

TEST(BusAddress, ReadAndWritten) {
    EXPECT_EQ(Address::parse("game:ab12"), Address::game("ab12"));
    EXPECT_EQ(Address::parse("lobby"), Address::lobby());
    EXPECT_EQ(Address::parse("event:7"), Address::event("7"));
    EXPECT_EQ(Address::parse("simul:x9"), Address::simul("x9"));
    for (const char* bad : {"", "game", "game:", "lobby:1", "room:1", ":1", "Game:1"})
        EXPECT_FALSE(Address::parse(bad).has_value()) << bad;
    for (const Address& a : {Address::game("g1"), Address::lobby(), Address::event("e"), Address::simul("s")})
        EXPECT_EQ(Address::parse(a.text()), a) << a.text();
}

TEST_F(BusFixture, AnAcknowledgementWaitsForItsMoveToBeDurableAndIsNeverOvertaken) {
    auto white = join(*game.white_token, Seat::WHITE_SEAT);
    auto black = join(*game.black_token, Seat::BLACK_SEAT);
    auto spectator = join("", Seat::SPECTATOR);
    hub->flush();
    const size_t before[3] = {white->all().size(), black->all().size(), spectator->all().size()};
    store->set_open(false);  // a slow fsync
    send(*white, {{"t", "move"}, {"uci", "e2e4"}});
    store->wait_for_writer();
    // While the move is not durable: nobody hears of it, the mover included; a resync
    // asked meanwhile waits behind it.
    send(*white, {{"t", "sync"}});
    send(*spectator, {{"t", "sync"}});
    EXPECT_EQ(white->all().size(), before[0]) << "acknowledged before it was durable";
    EXPECT_EQ(black->all().size(), before[1]);
    EXPECT_EQ(spectator->all().size(), before[2]) << "a spectator saw a move before it was durable";
    store->set_open(true);
    hub->flush();
    for (Inbox* who : {white.get(), spectator.get()}) {
        auto got = who->all();
        ASSERT_GE(got.size(), 2u);
        // The move, then the state asked for after it (which already has the move).
        EXPECT_EQ(got[got.size() - 2]["t"], "move");
        EXPECT_EQ(got[got.size() - 2]["game"]["ply"], 1);
        EXPECT_EQ(got.back()["t"], "state");
        EXPECT_EQ(got.back()["game"]["ply"], 1);
    }
    EXPECT_EQ(black->count("move"), 1u);
}

TEST_F(BusFixture, TheSeatIsTheOneTheOwnerGaveAtTheJoin) {
    auto spectator = join("", Seat::SPECTATOR);
    hub->flush();
    send(*spectator, {{"t", "move"}, {"uci", "e2e4"}});
    hub->flush();
    ASSERT_FALSE(spectator->all().empty());
    EXPECT_EQ(spectator->all().back()["code"], "not_your_seat");
    EXPECT_EQ(spectator->count("move"), 0u);
    // A token of no seat is refused at the join.
    auto stranger = std::make_shared<Inbox>();
    auto refused = bus.join(Address::game(game.id), stranger, with_token("nope"));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, "not_your_seat");
}

TEST_F(BusFixture, AConnectionThatLeftGetsNothingAndCannotSend) {
    auto white = join(*game.white_token, Seat::WHITE_SEAT);
    auto spectator = join("", Seat::SPECTATOR);
    EXPECT_EQ(bus.joined(), 2u);
    hub->flush();
    bus.leave(Address::game(game.id), spectator.get());
    EXPECT_EQ(bus.joined(), 1u);
    const size_t had = spectator->all().size();
    send(*white, {{"t", "move"}, {"uci", "d2d4"}});
    hub->flush();
    EXPECT_EQ(white->count("move"), 1u);
    EXPECT_EQ(spectator->all().size(), had) << "a connection that left was sent a message";
    // Its messages are not the game's any more: answered by the bus, not played.
    send(*spectator, {{"t", "resign"}});
    hub->flush();
    ASSERT_EQ(spectator->all().size(), had + 1);
    EXPECT_EQ(spectator->all().back()["code"], "not_joined");
    EXPECT_EQ(white->count("state"), 1u) << "the game changed after a message of a connection that left";
}

TEST_F(BusFixture, AnAddressNobodyServesAnswersAnError) {
    auto who = std::make_shared<Inbox>();
    for (const Address& a : {Address::event("e1"), Address::simul("s1"), Address::lobby()}) {
        auto r = bus.join(a, who, Credentials{});
        ASSERT_FALSE(r.ok()) << a.text();
        EXPECT_EQ(r.error().code, "not_found");
        bus.send(a, *who, R"({"t":"ping"})");
        ASSERT_FALSE(who->all().empty());
        EXPECT_EQ(who->all().back()["code"], "not_found") << a.text();
    }
    auto missing = bus.join(Address::game("nosuchgame"), who, Credentials{});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, "not_found");
    EXPECT_EQ(bus.joined(), 0u);
}

TEST_F(BusFixture, AGameRunByAnotherNodeIsNotHandledHere) {
    ElsewhereDirectory elsewhere;
    InProcessBus other(&elsewhere);
    other.serve(Topic::GAME, hub.get());
    auto who = std::make_shared<Inbox>();
    auto r = other.join(Address::game(game.id), who, with_token(*game.white_token));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "unavailable");
    other.send(Address::game(game.id), *who, R"({"t":"move","uci":"e2e4"})");
    hub->flush();
    ASSERT_EQ(who->all().size(), 1u);
    EXPECT_EQ(who->all().back()["code"], "unavailable");
    EXPECT_EQ(json::parse(hub->state_json(game.id).value())["game"]["ply"], 0) << "a move played by a node that does not run the game";
}

namespace {

// An owner that records what reaches it.
struct RecordingOwner final : BusHandler {
    std::vector<std::string> joins, texts, leaves;
    std::vector<bool> typed;
    Answer<Seat> on_join(const Address& at, const std::shared_ptr<Subscriber>&, const Credentials&) override {
        joins.push_back(at.text());
        return Seat::WHITE_SEAT;
    }
    void on_message(const ClientIn& in) override {
        texts.emplace_back(in.text);
        typed.push_back(in.message != nullptr);
        EXPECT_EQ(in.seat, Seat::WHITE_SEAT) << "the seat of the join";
    }
    void on_leave(const Address& at, const Subscriber*) override { leaves.push_back(at.text()); }
};

}  // namespace

TEST(BusRouting, AGameMessageIsReadOnceByTheBusOthersGoAsText) {
    InProcessBus bus;
    RecordingOwner games, lobby;
    bus.serve(Topic::GAME, &games);
    bus.serve(Topic::LOBBY, &lobby);
    auto who = std::make_shared<Inbox>();
    ASSERT_TRUE(bus.join(Address::game("g1"), who, Credentials{}).ok());
    ASSERT_TRUE(bus.join(Address::lobby(), who, Credentials{}).ok());
    bus.send(Address::game("g1"), *who, R"({"t":"move","uci":"e2e4"})");
    bus.send(Address::game("g1"), *who, R"({"t":"no such message"})");
    bus.send(Address::game("g1"), *who, "not json");
    bus.send(Address::lobby(), *who, R"({"t":"seek"})");
    EXPECT_EQ(games.texts, (std::vector<std::string>{R"({"t":"move","uci":"e2e4"})"}));
    EXPECT_EQ(games.typed, (std::vector<bool>{true}));
    EXPECT_EQ(lobby.texts, (std::vector<std::string>{R"({"t":"seek"})"}));
    EXPECT_EQ(lobby.typed, (std::vector<bool>{false}));
    ASSERT_EQ(who->all().size(), 2u) << "each message that does not read is answered by the bus";
    for (const json& e : who->all()) EXPECT_EQ(e["t"], "error");
    bus.leave(Address::game("g1"), who.get());
    bus.leave(Address::game("g1"), who.get());  // twice: the owner hears it once
    EXPECT_EQ(games.leaves, (std::vector<std::string>{"game:g1"}));
    EXPECT_EQ(bus.joined(), 1u);
}
