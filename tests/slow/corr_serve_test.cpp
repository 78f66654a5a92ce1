// Outpost — correspondence deadlines (C3) and adjourned games (R18, P19) through a real
// `outpost serve` that is killed (SIGKILL) and started again on the same database: the
// deadline and the sealed move must be intact after the restart and applied at the
// right time, also when that time passed while the server was down.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/serve_process.h"

namespace {

using namespace outpost::test;
using nlohmann::json;

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string iso(std::int64_t ms) {
    const std::time_t s = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::pair<std::string, std::string> create(int port, const json& body) {
    int fd = connect_to(port);
    Response r = http(fd, "POST", "/api/v1/games", body.dump(), "Content-Type: application/json\r\n");
    close(fd);
    json j = json::parse(r.body, nullptr, false);
    if (j.is_discarded() || !j.contains("game")) return {"", r.body};
    return {j["game"], j["seats"]["white"]};
}

json get_state(int port, const std::string& id) {
    int fd = connect_to(port);
    Response r = http(fd, "GET", "/api/v1/games/" + id);
    close(fd);
    json j = json::parse(r.body, nullptr, false);
    return j.is_discarded() ? json() : j["game"];
}

std::string get_text(int port, const std::string& target) {
    int fd = connect_to(port);
    Response r = http(fd, "GET", target);
    close(fd);
    return r.body;
}

// Sends the messages on one hotseat connection and returns the last state it saw
// after the last of them (each answered by `move` or `state`).
json play(int port, const std::string& id, const std::string& token, const std::vector<json>& messages) {
    auto [fd, status] = ws_open(port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
    if (fd < 0 || status != 101) return json();
    json last = json::parse(ws_read_data(fd, 10000).second, nullptr, false);
    for (const json& m : messages) {
        ws_send(fd, m.dump());
        json answer = json::parse(ws_read_data(fd, 10000).second, nullptr, false);
        if (!answer.is_discarded()) last = answer;
    }
    close(fd);
    return last;
}

// The server down for `ms` longer than it was: the stored wall-clock times of a game move
// back by that much (as if its clocks had been written that long ago).
void age_game(const fs::path& db, const std::string& id, std::int64_t ms) {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    const std::string sql = "UPDATE games SET turn_started_ms = turn_started_ms - " + std::to_string(ms) + " WHERE id='" + id + "'";
    EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(h);
}

TEST(CorrServe, C3R18DeadlinesAndSealedMovesSurviveKill9AndApplyOnTime) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-corr-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path db = dir / "corr.db";
    std::string corr, corr_token, late, late_token, adj, adj_token, arb, arb_token;
    std::int64_t white_ms_before = 0, resume_at = 0;
    {
        Server s({"--no-client-limits"}, db);
        ASSERT_GT(s.port, 0);
        std::tie(corr, corr_token) = create(s.port, {{"v", 1}, {"opponent", "hotseat"}, {"days_per_move", 2}});
        std::tie(late, late_token) = create(s.port, {{"v", 1}, {"opponent", "hotseat"}, {"days_per_move", 1}});
        ASSERT_FALSE(corr.empty()) << corr_token;
        json st = play(s.port, corr, corr_token, {{{"v", 1}, {"t", "move"}, {"uci", "e2e4"}}, {{"v", 1}, {"t", "move"}, {"uci", "e7e5"}}});
        ASSERT_EQ(st["game"]["ply"], 2) << st.dump();
        white_ms_before = st["game"]["clock"]["white_ms"];
        EXPECT_EQ(white_ms_before, 2 * 86'400'000LL);

        const json adj_body = {{"v", 1}, {"opponent", "hotseat"}, {"time_control", "10+5"}, {"adjournment", true}};
        std::tie(adj, adj_token) = create(s.port, adj_body);
        std::tie(arb, arb_token) = create(s.port, adj_body);
        resume_at = (wall_ms() / 1000 + 8) * 1000;
        st = play(s.port, adj, adj_token,
                  {{{"v", 1}, {"t", "move"}, {"uci", "e2e4"}}, {{"v", 1}, {"t", "move"}, {"uci", "e7e5"}},
                   {{"v", 1}, {"t", "seal"}, {"move", "Nf3"}}, {{"v", 1}, {"t", "resume"}, {"at", iso(resume_at)}}});
        EXPECT_EQ(st["game"]["adjournment"]["resume_at"], iso(resume_at)) << st.dump();
        st = play(s.port, arb, arb_token,
                  {{{"v", 1}, {"t", "move"}, {"uci", "d2d4"}}, {{"v", 1}, {"t", "move"}, {"uci", "d7d5"}},
                   {{"v", 1}, {"t", "seal"}, {"move", "Qxd5"}}});  // illegal: d4 blocks the queen
        EXPECT_FALSE(st["game"]["adjournment"].is_null()) << st.dump();
        s.stop(SIGKILL);
    }
    age_game(db, late, 2 * 86'400'000LL);  // its day ran out while the server was down
    {
        Server s({"--no-client-limits"}, db);
        ASSERT_GT(s.port, 0) << "the server did not start again after kill -9";
        // The deadline is intact: the clock ran on only for the seconds the server was down.
        json c = get_state(s.port, corr);
        EXPECT_EQ(c["status"], "ongoing");
        EXPECT_EQ(c["clock"]["running"], "white");
        const std::int64_t left = c["clock"]["white_ms"];
        EXPECT_LE(left, white_ms_before);
        EXPECT_GT(left, white_ms_before - 60'000);
        // The deadline that passed while the server was down is applied at start: White's
        // flag fell and Black can mate (all the pieces are on the board): a loss.
        json l = get_state(s.port, late);
        EXPECT_EQ(l["status"], "timeout");
        EXPECT_EQ(l["result"], "0-1");
        // The sealed move is still sealed.
        json a = get_state(s.port, adj);
        EXPECT_TRUE(a["adjournment"]["sealed_move"].is_null());
        EXPECT_EQ(a["ply"], 2);
        const std::string pgn = get_text(s.port, "/api/v1/games/" + adj + "/pgn");
        EXPECT_EQ(pgn.find("Nf3"), std::string::npos) << pgn;
        // The arbiter sets the other game's time from the command line.
        const std::string cmd = std::string(OUTPOST_BINARY) + " game --db " + db.string() + " resume " + arb + " --at " +
                                iso(resume_at) + " > /dev/null";
        EXPECT_EQ(std::system(cmd.c_str()), 0);
        EXPECT_NE(std::system((std::string(OUTPOST_BINARY) + " game --db " + db.string() + " resume " + arb +
                               " --at tomorrow 2> /dev/null").c_str()),
                  0);
        s.stop(SIGKILL);
    }
    // Down across the resumption time: applied at the next start.
    while (wall_ms() < resume_at + 1000) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    {
        Server s({"--no-client-limits"}, db);
        ASSERT_GT(s.port, 0);
        json a = get_state(s.port, adj);
        EXPECT_EQ(a["ply"], 3) << a.dump();
        EXPECT_EQ(a["san"].back(), "Nf3");
        EXPECT_EQ(a["adjournment"]["sealed_move"], "Nf3");
        EXPECT_EQ(a["clock"]["running"], "black");
        const std::string pgn = get_text(s.port, "/api/v1/games/" + adj + "/pgn");
        EXPECT_NE(pgn.find("[SealedMove \"Nf3\"]"), std::string::npos) << pgn;
        json b = get_state(s.port, arb);
        EXPECT_EQ(b["status"], "sealed-move-illegal") << b.dump();
        EXPECT_EQ(b["result"], "0-1");
        EXPECT_EQ(get_state(s.port, corr)["status"], "ongoing");
    }
    fs::remove_all(dir);
}

}  // namespace
