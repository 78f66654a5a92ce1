// Outpost — correspondence games (SPEC C3) and adjourned games (SPEC R18, P19; FIDE
// Laws, Guidelines I) in the hub, with an exact fake clock and a real SQLite file.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/play/adjournment.h"
#include "server/play/hub.h"
#include "server/common/protocol.h"
#include "server/stores/game_store.h"
#include "../support/fake_hub_env.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

constexpr Millis Day = 86'400'000;
using test::WallBase;

using outpost::test::Collector;

struct Corr : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::vector<std::pair<std::string, Millis>> callbacks;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::string db_path;

    HubEnv env() {
        HubEnv e = test::fake_hub_env(now, token_counter);
        e.call_back_in = [this](const std::string& id, Millis d) { callbacks.emplace_back(id, d); };
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-corr-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        std::filesystem::remove(db_path);
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(env(), storage.get());
    }
    void TearDown() override {
        hub.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void restart() {
        hub = std::make_unique<Hub>(env(), storage.get());
        callbacks.clear();
        auto n = hub->resume_from_storage();
        ASSERT_TRUE(n.ok());
    }
    CreatedGame create(const json& body, std::string_view client = {}) {
        auto r = hub->create_game(body.dump(), client);
        if (!r) ADD_FAILURE() << r.error().code << ": " << r.error().message;
        return r.value();
    }
    std::shared_ptr<Collector> join(const std::string& id, const std::string& token) {
        auto c = std::make_shared<Collector>();
        EXPECT_TRUE(hub->connect(id, token, c).ok());
        return c;
    }
    void send(const std::string& id, Seat seat, Collector& c, const json& msg) { hub->handle_message(id, seat, msg.dump(), c); }
    std::string last_error(const Collector& c) {
        json j = c.last();
        return j["t"] == "error" ? j["code"].get<std::string>() : "";
    }
    json state(const std::string& id) { return json::parse(hub->state_json(id).value())["game"]; }
};

// --- C3: correspondence ------------------------------------------------------------

TEST_F(Corr, C3DaysPerMoveFromOneToFourteen) {
    for (int bad : {0, 15}) {
        auto r = hub->create_game(json{{"opponent", "invite"}, {"days_per_move", bad}}.dump());
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, "bad_request");
    }
    EXPECT_FALSE(hub->create_game(json{{"opponent", "invite"}, {"time_control", "15d"}}.dump()).ok());
    EXPECT_FALSE(hub->create_game(json{{"opponent", "invite"}, {"days_per_move", 3}, {"time_control", "5+3"}}.dump()).ok());
    auto g = create({{"opponent", "invite"}, {"days_per_move", 14}});
    json c = state(g.id)["clock"];
    EXPECT_EQ(c["time_control"], "14d");
    EXPECT_EQ(c["class"], "correspondence");
    EXPECT_EQ(c["white_ms"], 14 * Day);
    EXPECT_EQ(c["running"], "white");  // the first move has its days too
}

// FIDE 6.9 (a missed deadline is a flag fall): the game is lost...
TEST_F(Corr, C3MissedDeadlineLoses) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 2}});
    auto w = join(g.id, *g.white_token);
    auto b = join(g.id, *g.black_token);
    now += Day;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    EXPECT_EQ(w->last_state()["clock"]["white_ms"], 2 * Day);  // each move gives the days again
    now += 2 * Day - 1;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    EXPECT_EQ(b->last_state()["ply"], 2);
    ASSERT_FALSE(callbacks.empty());
    EXPECT_EQ(callbacks.back().second, 2 * Day + 1);  // the timer is armed at the deadline
    now += 2 * Day - 1;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["status"], "ongoing");
    now += 1;
    hub->on_timer(g.id);
    json s = w->last_state();
    EXPECT_EQ(s["status"], "timeout");
    EXPECT_EQ(s["result"], "0-1");
}

// ... or drawn when the opponent cannot checkmate by any legal series of moves.
TEST_F(Corr, C3MissedDeadlineDrawsWhenTheOpponentCannotMate) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 1}, {"fen", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"}});
    auto w = join(g.id, *g.white_token);
    now += Day + 1;
    hub->on_timer(g.id);
    json s = w->last_state();
    EXPECT_EQ(s["status"], "timeout-draw");
    EXPECT_EQ(s["result"], "1/2-1/2");
}

// The online first-move rule (R14, 60 s) does not apply: the first move has days.
TEST_F(Corr, C3FirstMoveHasItsDaysNotTheOnlineAbort) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 1}});
    now += 3'600'000;
    hub->on_timer(g.id);
    EXPECT_EQ(state(g.id)["status"], "ongoing");
}

TEST_F(Corr, C3NoAbandonmentClaimInACorrespondenceGame) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 3}});
    auto w = join(g.id, *g.white_token);
    auto b = join(g.id, *g.black_token);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "g1f3"}});
    hub->disconnect(g.id, b.get());
    now += Day;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "claim"}, {"claim", "abandonment-win"}});
    EXPECT_EQ(last_error(*w), "not_allowed");
    EXPECT_EQ(state(g.id)["status"], "ongoing");
}

TEST_F(Corr, C3ManyCorrespondenceGamesAtOnce) {
    for (int i = 0; i < 30; ++i) {
        auto r = hub->create_game(json{{"opponent", "invite"}, {"days_per_move", 3}}.dump(), "10.0.0.1");
        ASSERT_TRUE(r.ok()) << i << ": " << r.error().message;
    }
    // The cap of live games is counted apart and still holds for them.
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(hub->create_game(json{{"opponent", "invite"}}.dump(), "10.0.0.1").ok());
    EXPECT_FALSE(hub->create_game(json{{"opponent", "invite"}}.dump(), "10.0.0.1").ok());
}

TEST_F(Corr, C3DeadlinesSurviveARestartAndOneThatPassedIsAppliedAtStart) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 3}});
    auto other = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 1}});
    {
        auto w = join(g.id, *g.white_token);
        auto b = join(g.id, *g.black_token);
        now += 5000;
        send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
        now += Day;
        send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    }
    now += 7'200'000;  // two hours, of which the server is down for all but the first
    restart();
    json s = state(g.id);
    EXPECT_EQ(s["clock"]["running"], "white");
    EXPECT_EQ(s["clock"]["white_ms"], 3 * Day - 7'200'000);
    bool armed = false;
    for (const auto& [id, d] : callbacks) armed = armed || (id == g.id && d == 3 * Day - 7'200'000 + 1);
    EXPECT_TRUE(armed) << "the deadline is armed again at start";
    // The row keeps the deadline as an absolute time.
    auto row = storage->load_game(g.id).value();
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->deadline_ms, WallBase + 1'000'000 + 5000 + Day + 3 * Day);
    // `other` missed its deadline while the server was down: decided at start.
    hub.reset();
    now += 3 * Day;
    restart();
    EXPECT_EQ(state(other.id)["status"], "timeout");
    EXPECT_EQ(state(g.id)["status"], "timeout");
    EXPECT_EQ(state(g.id)["result"], "0-1");
    EXPECT_EQ(storage->load_game(g.id).value()->status, "timeout");
}

TEST_F(Corr, C3MyGamesSayWhoseTurnAndTheDeadline) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 2}});
    auto w = join(g.id, *g.white_token);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "d2d4"}});
    json list = json::parse(hub->lookup(json{{"tokens", {*g.white_token}}}.dump()).value());
    ASSERT_EQ(list["games"].size(), 1u);
    EXPECT_EQ(list["games"][0]["turn"], "black");
    EXPECT_EQ(list["games"][0]["you"], "white");
    EXPECT_EQ(list["games"][0]["deadline"], WallBase + now + 2 * Day);
    EXPECT_EQ(list["games"][0]["adjourned"], false);
}

// --- R18 / P19: adjournment -----------------------------------------------------------

struct Adjourned : Corr {
    CreatedGame g;
    std::shared_ptr<Collector> w, b, spectator;
    void start(const json& extra = json::object()) {
        json body = {{"opponent", "invite"}, {"color", "white"}, {"time_control", "15+10"}, {"adjournment", true}};
        body.update(extra);
        g = create(body);
        w = join(g.id, *g.white_token);
        b = join(g.id, *g.black_token);
        spectator = join(g.id, "");
    }
    void moves(std::initializer_list<const char*> list) {
        for (const char* m : list) {
            now += 1000;
            const bool white = state(g.id)["turn"] == "white";
            send(g.id, white ? Seat::WHITE_SEAT : Seat::BLACK_SEAT, white ? *w : *b, {{"t", "move"}, {"uci", m}});
        }
    }
    void agree_in(Millis ms) {
        send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resume"}, {"at", format_iso_time(WallBase + now + ms)}});
        send(g.id, Seat::WHITE_SEAT, *w, {{"t", "resume"}, {"action", "accept"}});
    }
};

TEST_F(Adjourned, R18OffByDefault) {
    auto h = create({{"opponent", "invite"}, {"color", "white"}});
    auto hw = join(h.id, *h.white_token);
    send(h.id, Seat::WHITE_SEAT, *hw, {{"t", "seal"}, {"move", "e4"}});
    EXPECT_EQ(last_error(*hw), "not_allowed");
    EXPECT_EQ(state(h.id)["adjournable"], false);
    EXPECT_TRUE(state(h.id)["adjournment"].is_null());
}

TEST_F(Adjourned, R18OnlyThePlayerToMoveSeals) {
    start();
    moves({"e2e4"});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "seal"}, {"move", "Nf3"}});
    EXPECT_EQ(last_error(*w), "not_your_turn");
    send(g.id, Seat::SPECTATOR, *spectator, {{"t", "seal"}, {"move", "Nf6"}});
    EXPECT_EQ(last_error(*spectator), "not_your_seat");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "seal"}, {"move", ""}});
    EXPECT_EQ(last_error(*b), "bad_request");
}

// The sealed move is stored and sent to nobody: not in any message to the players or
// spectators, not in a sync, the HTTP state, the PGN, "My games" or the moves given to
// the analysis; the clocks are stopped and no move is taken.
TEST_F(Adjourned, R18SealedMoveIsSecretOnEveryReadPath) {
    start();
    moves({"e2e4", "e7e5", "b1c3"});
    now += 4000;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "seal"}, {"move", "Nc6"}});
    const json s = b->last_state();
    ASSERT_FALSE(s["adjournment"].is_null()) << b->all();
    EXPECT_EQ(s["adjournment"]["sealed_by"], "black");
    EXPECT_TRUE(s["adjournment"]["sealed_move"].is_null());
    EXPECT_TRUE(s["clock"]["running"].is_null());
    EXPECT_TRUE(s["legal"].empty());
    const Millis black_ms = s["clock"]["black_ms"];
    Collector synced;
    send(g.id, Seat::WHITE_SEAT, synced, {{"t", "sync"}});
    const std::string pgn = hub->pgn(g.id).value();
    const std::string http = hub->state_json(g.id).value();
    const std::string mine = hub->lookup(json{{"tokens", {*g.white_token, *g.black_token}}}.dump()).value();
    for (const std::string& text : {w->all(), b->all(), spectator->all(), synced.all(), pgn, http, mine}) {
        EXPECT_EQ(text.find("Nc6"), std::string::npos) << text;
        EXPECT_EQ(text.find("b8c6"), std::string::npos) << text;
    }
    EXPECT_NE(pgn.find("[Adjourned \""), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[SealedBy \"Black\"]"), std::string::npos) << pgn;
    EXPECT_EQ(hub->game_moves(g.id).value().moves.size(), 3u);
    EXPECT_TRUE(json::parse(mine)["games"][0]["adjourned"]);
    // Stored, for the resumption.
    EXPECT_NE(storage->load_game(g.id).value()->adjournment.find("Nc6"), std::string::npos);
    // While adjourned: no move, no takeback; the clocks do not run.
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "g8f6"}});
    EXPECT_EQ(last_error(*b), "adjourned");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(last_error(*w), "adjourned");
    now += Day;
    hub->on_timer(g.id);
    EXPECT_EQ(state(g.id)["clock"]["black_ms"], black_ms);
    EXPECT_EQ(state(g.id)["status"], "ongoing");
}

// I.10: at the agreed time the sealed move is played, the sealer's clock pressed.
TEST_F(Adjourned, R18ResumptionPlaysALegalSealedMove) {
    start();
    moves({"e2e4", "e7e5", "g1f3"});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "seal"}, {"move", "Nc6"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resume"}, {"at", "2000-01-01T00:00:00Z"}});
    EXPECT_EQ(last_error(*b), "bad_request");  // not in the past
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resume"}, {"action", "accept"}});
    EXPECT_EQ(last_error(*b), "not_allowed");  // nothing proposed
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "resume"}, {"at", format_iso_time(WallBase + now + 3'600'000)}});
    EXPECT_EQ(b->last_state()["adjournment"]["proposal"]["by"], "white");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "resume"}, {"action", "accept"}});
    EXPECT_EQ(last_error(*w), "not_allowed");  // one's own proposal
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resume"}, {"action", "accept"}});
    const json before = w->last_state();
    EXPECT_EQ(before["adjournment"]["resume_at"], format_iso_time(WallBase + now + 3'600'000));
    now += 3'600'000 - 1000;
    hub->on_timer(g.id);
    EXPECT_EQ(state(g.id)["ply"], 3);
    now += 1000;
    hub->on_timer(g.id);
    const json s = w->last_state();
    EXPECT_EQ(s["ply"], 4);
    EXPECT_EQ(s["moves"].back(), "b8c6");
    EXPECT_EQ(s["adjournment"]["sealed_move"], "Nc6");
    EXPECT_EQ(s["clock"]["running"], "white");
    EXPECT_EQ(s["clock"]["black_ms"], before["clock"]["black_ms"].get<Millis>() + 10'000);  // the increment
    std::string pgn = hub->pgn(g.id).value();
    for (char& ch : pgn) ch = ch == '\n' ? ' ' : ch;  // the writer wraps long comments
    EXPECT_NE(pgn.find("[SealedMove \"Nc6\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("Black (Anonymous) sealed Nc6"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("Position: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2."), std::string::npos) << pgn;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "f1b5"}});
    EXPECT_EQ(w->last_state()["ply"], 5);
}

TEST_F(Adjourned, R18IllegalSealedMoveLoses) {
    start();
    moves({"e2e4", "e7e5"});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "seal"}, {"move", "Ke3"}});
    agree_in(60'000);
    now += 60'000;
    hub->on_timer(g.id);
    const json s = b->last_state();
    EXPECT_EQ(s["status"], "sealed-move-illegal");
    EXPECT_EQ(s["result"], "0-1");
    EXPECT_EQ(s["ply"], 2);
    EXPECT_EQ(s["adjournment"]["sealed_move"], "Ke3");
    EXPECT_NE(hub->pgn(g.id).value().find("the sealed move was illegal or ambiguous"), std::string::npos);
}

TEST_F(Adjourned, R18AmbiguousSealedMoveLoses) {
    start({{"fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 30"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "seal"}, {"move", "Nd2"}});
    agree_in(60'000);
    now += 60'000;
    hub->on_timer(g.id);
    EXPECT_EQ(state(g.id)["status"], "sealed-move-illegal");
    EXPECT_EQ(state(g.id)["result"], "0-1");
}

TEST_F(Adjourned, R18AdjournmentSurvivesARestartAndResumesOnTime) {
    start();
    moves({"d2d4", "d7d5", "c2c4"});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "seal"}, {"move", "e6"}});
    const Millis white_ms = b->last_state()["clock"]["white_ms"], black_ms = b->last_state()["clock"]["black_ms"];
    agree_in(2 * Day);
    w.reset(), b.reset(), spectator.reset();
    now += Day;
    restart();
    json s = state(g.id);
    EXPECT_EQ(s["adjournment"]["sealed_by"], "black");
    EXPECT_TRUE(s["adjournment"]["sealed_move"].is_null());
    EXPECT_TRUE(s["clock"]["running"].is_null());
    EXPECT_EQ(s["clock"]["black_ms"], black_ms);
    EXPECT_EQ(hub->pgn(g.id).value().find("e6"), std::string::npos);
    hub.reset();
    now += 2 * Day;  // the resumption time passed while the server was down
    restart();
    s = state(g.id);
    EXPECT_EQ(s["ply"], 4);
    EXPECT_EQ(s["san"].back(), "e6");
    EXPECT_EQ(s["clock"]["running"], "white");
    EXPECT_EQ(s["clock"]["white_ms"], white_ms);
}

// An administrator sets the time from the command line (`outpost game resume`).
TEST_F(Adjourned, R18ArbiterSetsTheResumptionTime) {
    start();
    moves({"e2e4", "c7c5"});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "seal"}, {"move", "g1f3"}});
    ASSERT_TRUE(storage->set_arbiter_resume(g.id, WallBase + now + 600'000).ok());
    EXPECT_FALSE(storage->set_arbiter_resume("nosuchgame", WallBase).ok());
    now += 5000;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["adjournment"]["resume_at"], format_iso_time(WallBase + now - 5000 + 600'000));
    now += 600'000;
    hub->on_timer(g.id);
    EXPECT_EQ(state(g.id)["moves"].back(), "g1f3");
}

TEST(AdjournmentProtocol, R18SealAndResumeMessagesRoundTripAndBadOnesAreRefused) {
    const std::vector<ClientMessage> all = {in::Seal{"Nf3"}, in::Resume{1795545000000LL, false}, in::Resume{0, true}};
    for (const ClientMessage& m : all) {
        const std::string text = write_client_message(m);
        auto back = read_client_message(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error().message;
        EXPECT_EQ(write_client_message(back.value()), text);
    }
    for (const char* bad : {R"({"t":"seal"})", R"({"t":"seal","move":"Nf3 Nc6 Bb5 a6 O-O"})", R"({"t":"seal","move":"N\u0000f3"})",
                            R"({"t":"seal","move":7})", R"({"t":"resume"})", R"({"t":"resume","at":"soon"})",
                            R"({"t":"resume","action":"decline"})"})
        EXPECT_FALSE(read_client_message(bad).ok()) << bad;
}

TEST(AdjournmentTime, IsoTimesReadAndWritten) {
    EXPECT_EQ(parse_iso_time("1970-01-01T00:00:00Z"), 0);
    EXPECT_EQ(parse_iso_time("2026-11-24T18:30Z"), 1795545000000LL);
    EXPECT_EQ(format_iso_time(1795545000000LL), "2026-11-24T18:30:00Z");
    for (const char* bad : {"", "2026-11-24", "2026-02-31T00:00:00Z", "2026-11-24T25:00:00Z", "2026-11-24T18:30:00+02:00",
                            "2026-11-24T18:30:00Zjunk"})
        EXPECT_FALSE(parse_iso_time(bad).has_value()) << bad;
}

}  // namespace
