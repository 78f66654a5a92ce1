// Outpost — the game hub.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/hub.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <random>

#include "chess/bitboard.h"
#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/game_pgn.h"
#include "chess/movegen.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost::server {

using nlohmann::json;

namespace {

constexpr size_t MaxMessageBytes = 4096;
constexpr size_t MaxBodyBytes = 64 * 1024;

ProtocolError bad_request(std::string message) { return {"bad_request", std::move(message), 400}; }
ProtocolError not_allowed(std::string message) { return {"not_allowed", std::move(message), 409}; }

const char* color_name(Color c) { return c == WHITE ? "white" : "black"; }
std::optional<Color> color_from(std::string_view s) {
    if (s == "white") return WHITE;
    if (s == "black") return BLACK;
    return std::nullopt;
}

std::optional<Color> seat_color(Seat s) {
    if (s == Seat::WHITE_SEAT) return WHITE;
    if (s == Seat::BLACK_SEAT) return BLACK;
    return std::nullopt;
}

const char* seat_name(Seat s) {
    switch (s) {
    case Seat::WHITE_SEAT: return "white";
    case Seat::BLACK_SEAT: return "black";
    case Seat::BOTH: return "both";
    case Seat::SPECTATOR: return "spectator";
    }
    return "spectator";
}

// Reads an optional field of a given JSON type; a present field of another type is
// an error that names it.
template <class T>
std::optional<ProtocolError> read_field(const json& j, const char* name, std::optional<T>& out) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if constexpr (std::is_same_v<T, std::string>) {
        if (!it->is_string()) return bad_request(std::string("field '") + name + "' must be a string");
        if (it->get_ref<const std::string&>().size() > MaxBodyBytes) return bad_request(std::string("field '") + name + "' is too long");
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean()) return bad_request(std::string("field '") + name + "' must be true or false");
    } else {
        if (!it->is_number_integer()) return bad_request(std::string("field '") + name + "' must be a whole number");
        const auto v = it->get<std::int64_t>();
        if (v < -1'000'000'000 || v > 1'000'000'000) return bad_request(std::string("field '") + name + "' is out of range");
    }
    out = it->get<T>();
    return std::nullopt;
}

Answer<json> parse_object(std::string_view text, size_t limit) {
    if (text.size() > limit) return bad_request("message too large (" + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(limit) + ")");
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return bad_request("malformed JSON");
    if (!j.is_object()) return bad_request("the message must be a JSON object");
    if (auto v = j.find("v"); v != j.end() && !(v->is_number_integer() && v->get<int>() == 1))
        return bad_request("unsupported protocol version (this server speaks v1)");
    return j;
}

// The legal moves by origin square as the board shows them: for each square the
// set of destinations, standard castling also as king-takes-rook (as lichess does),
// Chess960 castling as king-takes-rook only (as UCI writes it).
std::array<Bitboard, 64> legal_by_origin(const Position& pos) {
    std::array<Bitboard, 64> dests{};
    for (Move m : legal_moves(pos)) {
        Bitboard& d = dests[size_t(m.from())];
        d |= square_bb(m.to());
        if (m.kind() == Move::CASTLING && !pos.is_chess960())
            d |= square_bb(make_square(m.to() > m.from() ? FILE_G : FILE_C, rank_of(m.from())));
    }
    return dests;
}

// A JSON string literal (the hot path writes its messages by hand).
void put_string(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            static constexpr char Hex[] = "0123456789abcdef";
            out += "\\u00";
            out += Hex[u >> 4];
            out += Hex[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}
void put_key(std::string& out, std::string_view key) {
    if (out.back() != '{') out += ',';
    put_string(out, key);
    out += ':';
}
void put_null_or(std::string& out, std::string_view key, std::optional<std::string_view> v) {
    put_key(out, key);
    if (v) put_string(out, *v);
    else out += "null";
}

std::string plies_to_csv(const std::vector<int>& v) {
    std::string s;
    for (int p : v) s += (s.empty() ? "" : ",") + std::to_string(p);
    return s;
}

}  // namespace

std::string error_json(const ProtocolError& e) {
    // Messages quote the input (a path, a move), which need not be UTF-8: replaced, not thrown (fuzz_server).
    return json{{"v", 1}, {"t", "error"}, {"code", e.code}, {"message", e.message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string CreatedGame::json() const {
    nlohmann::json seats = nlohmann::json::object();
    if (white_token) seats["white"] = *white_token;
    if (black_token) seats["black"] = *black_token;
    return nlohmann::json{{"v", 1}, {"game", id}, {"seats", seats}, {"you", seat_name(you)}}.dump();
}

struct NewGame {
    std::string opponent = "robot";  // robot | hotseat | invite
    std::optional<Color> creator_color;  // nullopt: by lot
    int level = 3;
    int elo = 0;
    std::string time_control = "-";
    bool chess960 = false;
    std::optional<int> chess960_number;
    std::string fen, pgn;
    bool casual = true;
    std::string name = "Anonymous";
    std::string opponent_name;
};

struct MessageFields {
    std::optional<std::string> uci, san, action, claim;
    std::optional<int> seconds, ply, lag_ms;
};

struct Hub::Room {
    StoredGame row;
    Game game;
    std::optional<Clock> clock;
    std::vector<std::string> san;
    std::vector<Millis> clock_after_ply;
    std::optional<Color> takeback_request;
    std::optional<Color> rematch_offer;
    std::string rematch_tokens[COLOR_NB];  // the new seat of each player of this game
    int robot_asked_ply = -1;
    std::uint64_t robot_request = 0;  // the outstanding robot request (0: none)
    bool clock_started = false;
    Millis turn_began = 0;  // monotonic, for the first-move timeout
    std::map<const Subscriber*, std::pair<std::weak_ptr<Subscriber>, Seat>> subscribers;

    bool robot(Color c) const { return (c == WHITE ? row.white_kind : row.black_kind) == "robot"; }
    bool invite() const { return row.white_kind == "human" && row.black_kind == "human" && row.white_token != row.black_token; }
    bool may_move(Seat seat) const {
        const Color turn = game.side_to_move();
        return !game.is_over() && (seat == Seat::BOTH || seat_color(seat) == turn) && !robot(turn);
    }
    Seat seat_of(std::string_view token) const {
        if (token.empty()) return Seat::SPECTATOR;
        const bool w = token == row.white_token, b = token == row.black_token;
        if (w && b) return Seat::BOTH;
        if (w) return Seat::WHITE_SEAT;
        if (b) return Seat::BLACK_SEAT;
        return Seat::SPECTATOR;
    }
};

Hub::Hub(HubEnv env, Storage* storage) : env_(std::move(env)), storage_(storage) {}
Hub::~Hub() = default;

size_t Hub::live_games() const {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (const auto& [id, r] : rooms_) n += !r->game.is_over();
    return n;
}

std::string Hub::levels_json() const { return env_.levels_json ? env_.levels_json() : R"({"v":1,"levels":[]})"; }

Hub::Room* Hub::find(const std::string& id) {
    if (auto it = rooms_.find(id); it != rooms_.end()) return it->second.get();
    if (!storage_ || id.size() > 64) return nullptr;
    auto stored = storage_->load_game(id);
    if (!stored || !stored->has_value()) return nullptr;
    auto room = room_from_stored(std::move(**stored));
    if (!room) return nullptr;
    Room* p = room.get();
    rooms_[id] = std::move(room);
    return p;
}

// --- Creating games ----------------------------------------------------------------

Answer<CreatedGame> Hub::create_game(std::string_view body, std::string_view /*client*/) {
    auto parsed = parse_object(body, MaxBodyBytes);
    if (auto* e = std::get_if<ProtocolError>(&parsed)) return *e;
    const json& j = std::get<json>(parsed);
    NewGame spec;
    std::optional<std::string> opponent, color, tc, variant, fen, pgn, name;
    std::optional<int> level, elo, number;
    std::optional<bool> casual;
    for (auto err : {read_field(j, "opponent", opponent), read_field(j, "color", color), read_field(j, "time_control", tc),
                     read_field(j, "variant", variant), read_field(j, "fen", fen), read_field(j, "pgn", pgn),
                     read_field(j, "name", name)})
        if (err) return *err;
    for (auto err : {read_field(j, "level", level), read_field(j, "elo", elo), read_field(j, "chess960", number)})
        if (err) return *err;
    if (auto err = read_field(j, "casual", casual)) return *err;

    if (opponent) {
        if (*opponent != "robot" && *opponent != "hotseat" && *opponent != "invite")
            return bad_request("opponent must be 'robot', 'hotseat' or 'invite'");
        spec.opponent = *opponent;
    }
    if (color && *color != "random") {
        spec.creator_color = color_from(*color);
        if (!spec.creator_color) return bad_request("color must be 'white', 'black' or 'random'");
    }
    if (level) {
        if (*level < 1 || *level > 10) return bad_request("level must be 1 to 10");
        spec.level = *level;
    }
    if (elo) {
        if (*elo < 400 || *elo > 3500) return bad_request("elo must be 400 to 3500");
        spec.elo = *elo;
        spec.level = 0;
    }
    if (tc) spec.time_control = *tc;
    if (variant) {
        if (*variant != "standard" && *variant != "chess960") return bad_request("variant must be 'standard' or 'chess960'");
        spec.chess960 = *variant == "chess960";
    }
    if (number) {
        if (*number < 0 || *number > 959) return bad_request("chess960 must be a number from 0 to 959");
        spec.chess960_number = *number;
        spec.chess960 = true;
    }
    if (fen) spec.fen = *fen;
    if (pgn) spec.pgn = *pgn;
    if (casual) spec.casual = *casual;
    if (name) {
        if (name->size() > 40) return bad_request("name is longer than 40 characters");
        if (!name->empty()) spec.name = *name;
    }
    std::lock_guard lock(mutex_);
    return create_room(spec, "");
}

Answer<CreatedGame> Hub::create_room(const NewGame& spec, const std::string& rematch_of) {
    auto tc = parse_time_control(spec.time_control);
    if (!tc) return bad_request(tc.error().message);

    // The start position (P13, R16).
    Position start = Position::startpos();
    std::vector<Move> pgn_moves;
    int number = -1;
    if (!spec.pgn.empty()) {
        auto game = read_pgn_game(spec.pgn);
        if (!game) return bad_request("PGN: " + game.error().message);
        start = game->start;
        pgn_moves = game->mainline();
    } else if (!spec.fen.empty()) {
        auto pos = position_from_fen(spec.fen, spec.chess960);
        if (!pos) return bad_request("FEN: " + pos.error().message);
        start = *pos;
    } else if (spec.chess960) {
        static thread_local std::mt19937 rng{std::random_device{}()};
        number = spec.chess960_number.value_or(int(rng() % 960));
        start = chess960_position(number).value();
    }
    GameOptions options;
    options.auto_claim_draws = spec.casual;
    Game game(start, options);
    for (Move m : pgn_moves) {
        if (!game.play(m)) return bad_request("PGN: a move could not be replayed");
        if (game.is_over()) return bad_request("the game in the PGN is already over: " + describe(game.outcome()));
    }
    if (game.is_over()) return bad_request("the start position is already decided: " + describe(game.outcome()));

    static thread_local std::mt19937 coin{std::random_device{}()};
    const Color creator = spec.creator_color.value_or(coin() % 2 ? WHITE : BLACK);

    auto room = std::make_unique<Room>(Room{StoredGame{}, game, std::nullopt, {}, {}, {}, {}, {}, -1, 0, false, 0, {}});
    StoredGame& row = room->row;
    do row.id = env_.random_token(8);
    while (rooms_.count(row.id) || (storage_ && storage_->load_game(row.id).value().has_value()));
    row.created_ms = row.updated_ms = env_.wall_ms();
    const std::string creator_token = env_.random_token(22);
    CreatedGame created;
    created.id = row.id;
    if (spec.opponent == "hotseat") {
        row.white_token = row.black_token = creator_token;
        row.white_kind = row.black_kind = "human";
        row.white_name = spec.name;
        row.black_name = spec.opponent_name.empty() ? spec.name : spec.opponent_name;
        created.white_token = created.black_token = creator_token;
        created.you = Seat::BOTH;
    } else {
        const std::string other = spec.opponent == "robot" ? env_.random_token(22) : env_.random_token(22);
        row.white_token = creator == WHITE ? creator_token : other;
        row.black_token = creator == BLACK ? creator_token : other;
        const bool robot = spec.opponent == "robot";
        std::string robot_name = spec.level ? "Outpost level " + std::to_string(spec.level)
                                            : "Outpost " + std::to_string(spec.elo);
        std::string opponent_name = robot ? robot_name : (spec.opponent_name.empty() ? "Anonymous" : spec.opponent_name);
        row.white_kind = creator == WHITE ? "human" : (robot ? "robot" : "human");
        row.black_kind = creator == BLACK ? "human" : (robot ? "robot" : "human");
        row.white_name = creator == WHITE ? spec.name : opponent_name;
        row.black_name = creator == BLACK ? spec.name : opponent_name;
        if (creator == WHITE || !robot) created.white_token = row.white_token;
        if (creator == BLACK || !robot) created.black_token = row.black_token;
        created.you = creator == WHITE ? Seat::WHITE_SEAT : Seat::BLACK_SEAT;
    }
    row.robot_level = spec.level;
    row.robot_elo = spec.elo;
    row.time_control = tc->to_string();
    row.variant = start.is_chess960() ? "chess960" : "standard";
    row.chess960 = number;
    row.initial_fen = to_fen(start);
    row.casual = spec.casual;
    row.rematch_of = rematch_of;
    for (size_t i = 0; i < pgn_moves.size(); ++i) {
        const Position& before = room->game.positions()[i];
        room->san.push_back(move_to_san(before, pgn_moves[i]));
        room->clock_after_ply.push_back(-1);
        row.moves.push_back(StoredMove{int(i + 1), move_to_uci(before, pgn_moves[i]), 0, 0, row.created_ms});
    }
    if (!tc->unlimited()) room->clock.emplace(*tc, env_.monotonic_ms);
    room->turn_began = env_.monotonic_ms();
    if (room->clock && room->game.ply() >= 2) {
        room->clock->start(room->game.side_to_move());
        room->clock_started = true;
    }
    room->row.status = std::string(status_id(room->game.status()));
    if (storage_) {
        // Persist before answering (D3).
        StoredGame copy = row;
        copy.white_ms = room->clock ? room->clock->remaining(WHITE) : 0;
        copy.black_ms = room->clock ? room->clock->remaining(BLACK) : 0;
        copy.running = room->clock_started ? color_name(room->game.side_to_move()) : "";
        copy.turn_started_ms = row.created_ms;
        row = copy;
        if (auto r = storage_->insert_game(row); !r) return ProtocolError{"internal", r.error().message, 500};
    }
    Room* p = room.get();
    rooms_[row.id] = std::move(room);
    after_change(*p);
    return created;
}

// --- Restoring games after a restart ------------------------------------------------

std::unique_ptr<Hub::Room> Hub::room_from_stored(StoredGame g) {
    auto start = position_from_fen(g.initial_fen, g.variant == "chess960");
    if (!start) return nullptr;
    GameOptions options;
    options.auto_claim_draws = g.casual;
    auto room = std::make_unique<Room>(Room{std::move(g), Game(*start, options), std::nullopt, {}, {}, {}, {}, {}, -1, 0, false, 0, {}});
    StoredGame& row = room->row;
    for (const StoredMove& m : row.moves) {
        auto mv = move_from_uci(room->game.position(), m.uci);
        if (!mv) return nullptr;
        room->san.push_back(move_to_san(room->game.position(), *mv));
        const Color mover = room->game.side_to_move();
        room->clock_after_ply.push_back(mover == WHITE ? m.white_ms : m.black_ms);
        if (!room->game.play(*mv)) return nullptr;
    }
    // Endings that are not decided by the board come from the stored status.
    if (!room->game.is_over() && row.status != "ongoing") {
        const auto status = status_from_id(row.status);
        const bool decisive = row.result == "1-0" || row.result == "0-1";
        const Color loser = row.result == "1-0" ? BLACK : WHITE;  // meaningful when decisive
        switch (status.value_or(Status::ABORTED)) {
        case Status::RESIGNATION:
            if (decisive) (void)room->game.resign(loser);
            else (void)room->game.abort();
            break;
        case Status::AGREEMENT:
            (void)room->game.offer_draw(WHITE);
            (void)room->game.accept_draw(BLACK);
            break;
        case Status::TIMEOUT:
        case Status::TIMEOUT_DRAW: (void)room->game.flag_fell(decisive ? loser : room->game.side_to_move()); break;
        case Status::THREEFOLD_REPETITION: (void)room->game.claim_draw(DrawClaim::THREEFOLD_REPETITION); break;
        case Status::FIFTY_MOVES: (void)room->game.claim_draw(DrawClaim::FIFTY_MOVES); break;
        case Status::FORFEIT: (void)room->game.forfeit(loser); break;
        default: (void)room->game.abort(); break;
        }
    }
    if (!room->game.is_over()) {
        if (!row.draw_offer.empty()) (void)room->game.offer_draw(*color_from(row.draw_offer));
        room->takeback_request = color_from(row.takeback_request);
    }
    auto tc = parse_time_control(row.time_control);
    if (tc && !tc->unlimited()) {
        room->clock.emplace(*tc, env_.monotonic_ms);
        // Presses are the moves made from ply 2 on (the first two moves are untimed).
        const Color first = start->side_to_move();
        int presses[COLOR_NB] = {0, 0};
        for (int i = 2; i < room->game.ply(); ++i) ++presses[(i % 2) ? ~first : first];
        room->clock->restore(WHITE, row.white_ms, presses[WHITE]);
        room->clock->restore(BLACK, row.black_ms, presses[BLACK]);
        if (!room->game.is_over() && room->game.ply() >= 2) {
            room->clock_started = true;
            room->clock->start(room->game.side_to_move(), std::max<std::int64_t>(0, env_.wall_ms() - row.turn_started_ms));
        }
    }
    room->turn_began = env_.monotonic_ms();
    return room;
}

Result<int> Hub::resume_from_storage() {
    if (!storage_) return 0;
    auto games = storage_->load_live_games();
    if (!games) return games.error();
    std::lock_guard lock(mutex_);
    int n = 0;
    for (StoredGame& g : *games) {
        std::string id = g.id;
        auto room = room_from_stored(std::move(g));
        if (!room) continue;
        Room* p = room.get();
        rooms_[id] = std::move(room);
        check_flags(*p);
        after_change(*p);
        ++n;
    }
    return n;
}

// --- Reading -----------------------------------------------------------------------

std::string Hub::state_for(const Room& r, Seat seat) const {
    const Game& g = r.game;
    const Position& pos = g.position();
    json moves = json::array();
    for (Move m : g.moves()) moves.push_back(move_to_uci(m, pos.is_chess960()));
    json legal = json::object();
    const Color turn = pos.side_to_move();
    if (r.may_move(seat)) {
        const auto dests = legal_by_origin(pos);
        for (int from = 0; from < 64; ++from) {
            if (!dests[size_t(from)]) continue;
            json tos = json::array();
            for (Bitboard b = dests[size_t(from)]; b; b &= b - 1) tos.push_back(square_name(lsb(b)));
            legal[square_name(Square(from))] = std::move(tos);
        }
    }
    json claimable = json::array();
    for (DrawClaim c : g.claimable_draws()) claimable.push_back(claim_id(c));
    json clock = nullptr;
    if (r.clock) {
        const auto running = r.clock->running_side();
        clock = json{{"white_ms", std::max<Millis>(0, r.clock->remaining(WHITE))},
                     {"black_ms", std::max<Millis>(0, r.clock->remaining(BLACK))},
                     {"running", running ? json(color_name(*running)) : json(nullptr)},
                     {"server_time", env_.monotonic_ms()},
                     {"time_control", r.row.time_control},
                     {"class", time_class_name(r.clock->time_control().classify())}};
    } else {
        clock = json{{"white_ms", nullptr}, {"black_ms", nullptr}, {"running", nullptr}, {"server_time", env_.monotonic_ms()},
                     {"time_control", "-"}, {"class", "unlimited"}};
    }
    auto player = [&](Color c) {
        const bool robot = r.robot(c);
        json p{{"kind", robot ? "robot" : "human"}, {"name", c == WHITE ? r.row.white_name : r.row.black_name}};
        if (robot) {
            p["level"] = r.row.robot_level;
            p["elo"] = r.row.robot_elo ? r.row.robot_elo
                                       : (env_.level_elo && r.row.robot_level ? env_.level_elo(r.row.robot_level) : 0);
        }
        return p;
    };
    json rematch{{"offered_by", r.rematch_offer ? json(color_name(*r.rematch_offer)) : json(nullptr)},
                 {"game", r.row.rematch_game.empty() ? json(nullptr) : json(r.row.rematch_game)},
                 {"seat", nullptr}};
    if (!r.row.rematch_game.empty()) {
        if (auto c = seat_color(seat)) rematch["seat"] = r.rematch_tokens[*c];
        else if (seat == Seat::BOTH) rematch["seat"] = r.rematch_tokens[WHITE];
    }
    json state{{"id", r.row.id},
               {"variant", r.row.variant},
               {"chess960", r.row.chess960 >= 0 ? json(r.row.chess960) : json(nullptr)},
               {"initial_fen", r.row.initial_fen},
               {"fen", to_fen(pos)},
               {"turn", color_name(turn)},
               {"ply", g.ply()},
               {"moves", moves},
               {"san", r.san},
               {"last_move", moves.empty() ? json(nullptr) : moves.back()},
               {"check", pos.in_check() ? json(square_name(pos.king_square(turn))) : json(nullptr)},
               {"legal", legal},
               {"status", status_id(g.status())},
               {"result", result_string(g.outcome())},
               {"winner", g.outcome().winner ? json(color_name(*g.outcome().winner)) : json(nullptr)},
               {"end", g.is_over() ? describe(g.outcome()) : ""},
               {"claimable", claimable},
               {"draw_offer", g.draw_offer() ? json(color_name(*g.draw_offer())) : json(nullptr)},
               {"takeback_request", r.takeback_request ? json(color_name(*r.takeback_request)) : json(nullptr)},
               {"can_abort", g.can_abort()},
               {"casual", r.row.casual},
               {"clock", clock},
               {"players", {{"white", player(WHITE)}, {"black", player(BLACK)}}},
               {"you", seat_name(seat)},
               {"rematch", rematch}};
    return json{{"v", 1}, {"t", "state"}, {"game", state}}.dump();
}

Answer<std::string> Hub::state_json(const std::string& id) {
    std::lock_guard lock(mutex_);
    Room* r = find(id);
    if (!r) return ProtocolError{"not_found", "no game with id '" + id.substr(0, 64) + "'", 404};
    return state_for(*r, Seat::SPECTATOR);
}

Answer<std::string> Hub::pgn(const std::string& id) {
    std::lock_guard lock(mutex_);
    Room* r = find(id);
    if (!r) return ProtocolError{"not_found", "no game with id '" + id.substr(0, 64) + "'", 404};
    GameRecord rec;
    rec.event = r->row.casual ? "Casual game" : "Rated game";
    rec.site = "Outpost";
    const std::time_t t = std::time_t(r->row.created_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    rec.date = date;
    rec.white = r->row.white_name;
    rec.black = r->row.black_name;
    if (r->clock) rec.time_control = r->clock->time_control();
    rec.clock_after_ply = r->clock_after_ply;
    // Plies without a clock reading (untimed first moves) carry none.
    PgnGame pgn = game_to_pgn(r->game, rec);
    for (size_t i = 0; i < pgn.moves.size() && i < r->clock_after_ply.size(); ++i) {
        if (r->clock_after_ply[i] >= 0) continue;
        auto& c = pgn.moves[i].comments_after;
        if (!c.empty() && c.front().rfind("[%clk", 0) == 0) c.erase(c.begin());
    }
    if (r->row.variant == "chess960") pgn.set_tag("Variant", "Chess960");
    return write_pgn(pgn);
}

Answer<std::string> Hub::lookup(std::string_view body) {
    auto parsed = parse_object(body, MaxBodyBytes);
    if (auto* e = std::get_if<ProtocolError>(&parsed)) return *e;
    const json& j = std::get<json>(parsed);
    auto it = j.find("tokens");
    if (it == j.end() || !it->is_array()) return bad_request("field 'tokens' must be an array of seat tokens");
    if (it->size() > 200) return bad_request("at most 200 tokens");
    std::vector<std::string> tokens;
    for (const auto& t : *it) {
        if (!t.is_string() || t.get_ref<const std::string&>().size() > 64) return bad_request("each token must be a string of at most 64 characters");
        tokens.push_back(t.get<std::string>());
    }
    json games = json::array();
    std::lock_guard lock(mutex_);
    if (storage_) {
        auto rows = storage_->games_for_tokens(tokens);
        if (!rows) return ProtocolError{"internal", rows.error().message, 500};
        for (const StoredGame& g : *rows) {
            std::string you = "spectator", token;
            for (const auto& t : tokens) {
                if (t == g.white_token && t == g.black_token) you = "both", token = t;
                else if (t == g.white_token) you = "white", token = t;
                else if (t == g.black_token) you = "black", token = t;
            }
            // Live rooms know more than the row (the ply count).
            int plies = -1;
            if (auto r = rooms_.find(g.id); r != rooms_.end()) plies = r->second->game.ply();
            games.push_back(json{{"id", g.id}, {"white", g.white_name}, {"black", g.black_name}, {"status", g.status},
                                 {"result", g.result}, {"updated", g.updated_ms}, {"created", g.created_ms},
                                 {"you", you}, {"token", token}, {"plies", plies}, {"time_control", g.time_control},
                                 {"variant", g.variant}});
        }
    }
    return json{{"v", 1}, {"games", games}}.dump();
}

// --- Connections -------------------------------------------------------------------

Answer<Seat> Hub::connect(const std::string& id, std::string_view token, const std::shared_ptr<Subscriber>& who) {
    std::lock_guard lock(mutex_);
    Room* r = find(id);
    if (!r) return ProtocolError{"not_found", "no game with id '" + id.substr(0, 64) + "'", 404};
    const Seat seat = r->seat_of(token);
    if (!token.empty() && seat == Seat::SPECTATOR)
        return ProtocolError{"not_your_seat", "this seat token does not belong to game " + id, 403};
    r->subscribers[who.get()] = {who, seat};
    who->deliver(std::make_shared<const std::string>(state_for(*r, seat)));
    return seat;
}

void Hub::disconnect(const std::string& id, const Subscriber* who) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    r.subscribers.erase(who);
    // A finished game nobody follows leaves memory (it is read back from storage if
    // someone opens it again), unless a rematch was made: the seat links to the rematch
    // are known only here.
    if (r.game.is_over() && r.subscribers.empty() && r.row.rematch_game.empty()) rooms_.erase(it);
}

// Sends each live subscriber the message made for its seat, made once per seat kind;
// drops subscribers that are gone.
void Hub::deliver_per_seat(Room& r, const std::function<std::string(Seat)>& make) {
    std::shared_ptr<const std::string> cache[4];
    for (auto it = r.subscribers.begin(); it != r.subscribers.end();) {
        auto sub = it->second.first.lock();
        if (!sub) {
            it = r.subscribers.erase(it);
            continue;
        }
        auto& msg = cache[size_t(it->second.second)];
        if (!msg) msg = std::make_shared<const std::string>(make(it->second.second));
        sub->deliver(msg);
        ++it;
    }
}

void Hub::broadcast(Room& r) {
    deliver_per_seat(r, [&](Seat seat) { return state_for(r, seat); });
}

// After one move: a `move` message with what changed, instead of the whole state
// (docs/protocol.md). It is written by hand, once for everyone, with the legal moves
// added for the seat whose turn it is: this is the message a busy server sends most.
void Hub::broadcast_move(Room& r) {
    const Game& g = r.game;
    const Position& pos = g.position();
    const Color turn = pos.side_to_move();
    const std::string uci = move_to_uci(g.moves().back(), pos.is_chess960());
    std::string head;
    head.reserve(640);
    head += R"({"v":1,"t":"move","game":{)";
    put_key(head, "id");
    put_string(head, r.row.id);
    put_key(head, "ply");
    head += std::to_string(g.ply());
    put_key(head, "uci");
    put_string(head, uci);
    put_key(head, "san");
    put_string(head, r.san.back());
    put_key(head, "fen");
    put_string(head, to_fen(pos));
    put_key(head, "turn");
    put_string(head, color_name(turn));
    put_key(head, "last_move");
    put_string(head, uci);
    put_null_or(head, "check", pos.in_check() ? std::optional<std::string_view>(square_name(pos.king_square(turn))) : std::nullopt);
    put_key(head, "status");
    put_string(head, status_id(g.status()));
    put_key(head, "result");
    put_string(head, result_string(g.outcome()));
    put_null_or(head, "winner", g.outcome().winner ? std::optional<std::string_view>(color_name(*g.outcome().winner)) : std::nullopt);
    put_key(head, "end");
    put_string(head, g.is_over() ? describe(g.outcome()) : "");
    put_key(head, "claimable");
    head += '[';
    for (DrawClaim c : g.claimable_draws()) {
        if (head.back() != '[') head += ',';
        put_string(head, claim_id(c));
    }
    head += ']';
    put_null_or(head, "draw_offer", g.draw_offer() ? std::optional<std::string_view>(color_name(*g.draw_offer())) : std::nullopt);
    put_null_or(head, "takeback_request", r.takeback_request ? std::optional<std::string_view>(color_name(*r.takeback_request)) : std::nullopt);
    put_key(head, "can_abort");
    head += g.can_abort() ? "true" : "false";
    put_key(head, "clock");
    {
        const auto running = r.clock ? r.clock->running_side() : std::nullopt;
        head += '{';
        put_key(head, "white_ms");
        head += r.clock ? std::to_string(std::max<Millis>(0, r.clock->remaining(WHITE))) : "null";
        put_key(head, "black_ms");
        head += r.clock ? std::to_string(std::max<Millis>(0, r.clock->remaining(BLACK))) : "null";
        put_null_or(head, "running", running ? std::optional<std::string_view>(color_name(*running)) : std::nullopt);
        put_key(head, "server_time");
        head += std::to_string(env_.monotonic_ms());
        put_key(head, "time_control");
        put_string(head, r.clock ? r.row.time_control : "-");
        put_key(head, "class");
        put_string(head, r.clock ? time_class_name(r.clock->time_control().classify()) : "unlimited");
        head += '}';
    }
    put_key(head, "legal");
    deliver_per_seat(r, [&](Seat seat) {
        std::string m = head;
        m += '{';
        if (r.may_move(seat)) {
            const auto dests = legal_by_origin(pos);
            for (int from = 0; from < 64; ++from) {
                if (!dests[size_t(from)]) continue;
                put_key(m, square_name(Square(from)));
                m += '[';
                for (Bitboard b = dests[size_t(from)]; b; b &= b - 1) {
                    if (m.back() != '[') m += ',';
                    put_string(m, square_name(lsb(b)));
                }
                m += ']';
            }
        }
        m += "}}}";
        return m;
    });
}

// --- Acting ------------------------------------------------------------------------

Result<bool> Hub::persist(Room& r) {
    StoredGame& row = r.row;
    row.updated_ms = env_.wall_ms();
    row.status = std::string(status_id(r.game.status()));
    row.result = std::string(result_string(r.game.outcome()));
    row.draw_offer = r.game.draw_offer() ? color_name(*r.game.draw_offer()) : "";
    row.takeback_request = r.takeback_request ? color_name(*r.takeback_request) : "";
    row.offer_plies = plies_to_csv(r.game.draw_offer_plies());
    if (r.clock) {
        row.white_ms = r.clock->remaining(WHITE);
        row.black_ms = r.clock->remaining(BLACK);
        row.running = r.clock->running_side() ? color_name(*r.clock->running_side()) : "";
    }
    row.turn_started_ms = row.updated_ms;
    if (!storage_) return true;
    const int stored = int(row.moves.size());
    const int ply = r.game.ply();
    if (ply < stored) {
        row.moves.resize(size_t(ply));
        return storage_->truncate_moves(row, ply);
    }
    if (ply > stored) {
        // One new move (the hub persists after every move).
        const Position& before = r.game.positions()[size_t(ply - 1)];
        StoredMove m{ply, move_to_uci(before, r.game.moves().back()), row.white_ms, row.black_ms, row.updated_ms};
        row.moves.push_back(m);
        return storage_->append_move(row, m);
    }
    return storage_->update_game(row);
}

void Hub::after_change(Room& r, bool one_move) {
    if (one_move) broadcast_move(r);
    else broadcast(r);
    schedule(r);
    maybe_ask_robot(r);
}

void Hub::schedule(Room& r) {
    if (r.game.is_over() || !env_.call_back_in) return;
    if (r.clock && r.clock->running()) {
        const Color c = *r.clock->running_side();
        env_.call_back_in(r.row.id, std::max<Millis>(0, r.clock->remaining(c) + r.clock->delay_left(c)) + 1);
    } else if (r.invite() && r.game.ply() < 2) {
        env_.call_back_in(r.row.id, std::max<Millis>(0, r.turn_began + env_.first_move_timeout_ms - env_.monotonic_ms()) + 1);
    }
}

void Hub::check_flags(Room& r) {
    if (r.game.is_over()) return;
    if (r.clock && r.clock->running()) {
        const Color c = *r.clock->running_side();
        if (r.clock->flag_fallen(c)) {
            r.clock->stop();
            (void)r.game.flag_fell(c);
            (void)persist(r);
        }
        return;
    }
    // R14, online default: no first move in time aborts the game without result.
    if (r.invite() && r.game.ply() < 2 && env_.monotonic_ms() - r.turn_began >= env_.first_move_timeout_ms) {
        (void)r.game.abort();
        (void)persist(r);
    }
}

void Hub::on_timer(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    const bool was_over = r.game.is_over();
    check_flags(r);
    if (!was_over && r.game.is_over()) broadcast(r);
    else schedule(r);
}

void Hub::maybe_ask_robot(Room& r) {
    if (r.game.is_over() || !env_.ask_robot) return;
    const Color turn = r.game.side_to_move();
    if (!r.robot(turn) || r.robot_asked_ply == r.game.ply()) return;
    r.robot_asked_ply = r.game.ply();
    RobotRequest req;
    req.game_id = r.row.id;
    req.request_id = r.robot_request = ++next_robot_request_;
    req.asked_at_ms = env_.monotonic_ms();
    req.ply = r.game.ply();
    req.start = r.game.start_position();
    req.moves = r.game.moves();
    req.level = r.row.robot_level;
    req.elo = r.row.robot_elo;
    if (r.clock && !r.clock->time_control().correspondence()) {
        const Period& p = r.clock->time_control().periods.front();
        req.my_time = std::max<Millis>(0, r.clock->remaining(turn));
        req.their_time = std::max<Millis>(0, r.clock->remaining(~turn));
        req.my_inc = req.their_inc = p.increment + p.delay;
    }
    env_.ask_robot(std::move(req));
}

void Hub::on_robot_move(const std::string& id, std::uint64_t request_id, Move move) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    // Only the answer to the outstanding request counts: an answer computed for a position
    // that was since taken back (same ply count, other position) is stale.
    if (request_id == 0 || request_id != r.robot_request) return;
    r.robot_request = 0;
    if (r.game.is_over() || !r.robot(r.game.side_to_move())) return;
    auto done = apply_move(r, r.game.side_to_move(), move, 0, std::nullopt);
    if (std::holds_alternative<ProtocolError>(done)) {
        // A robot that cannot move legally has lost its mind; let it try again.
        r.robot_asked_ply = -1;
        after_change(r);
        return;
    }
    after_change(r, true);
}

Answer<bool> Hub::apply_move(Room& r, Color mover, Move m, Millis lag_ms, std::optional<DrawClaim> claim) {
    if (r.game.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(r.game.outcome()), 409};
    check_flags(r);
    if (r.game.is_over()) return ProtocolError{"game_over", "time is up: " + describe(r.game.outcome()), 409};

    // Time first: a move that arrives after the flag fell does not count. The clock is
    // pressed on a copy, kept only if the move is legal.
    std::optional<Clock> pressed = r.clock;
    if (pressed && r.clock_started && !pressed->press(mover, std::min(std::max<Millis>(0, lag_ms), env_.max_lag_credit_ms))) {
        r.clock = pressed;  // as the failed press left it: the flag fell
        r.clock->stop();
        (void)r.game.flag_fell(mover);
        (void)persist(r);
        return ProtocolError{"game_over", "time is up: " + describe(r.game.outcome()), 409};
    }
    const Game::UndoPoint undo = r.game.undo_point();
    const bool was_started = r.clock_started;
    const Position before = r.game.position();
    auto played = claim ? r.game.claim_draw_with_move(*claim, m) : r.game.play(m);
    if (!played) return ProtocolError{"illegal_move", played.error().message, 400};

    if (r.clock) {
        if (r.clock_started) {
            std::swap(r.clock, pressed);  // `pressed` keeps the clock before, for a rollback
        } else if (r.game.ply() >= 2) {
            r.clock->start(r.game.side_to_move());
            r.clock_started = true;
        }
        if (r.game.is_over()) r.clock->stop();
    }
    r.san.push_back(move_to_san(before, m));
    r.clock_after_ply.push_back(r.clock && r.clock_started && r.game.ply() > 2 ? r.clock->remaining(mover) : -1);
    r.takeback_request.reset();
    r.turn_began = env_.monotonic_ms();
    if (auto saved = persist(r); !saved) {
        r.game.undo_to(undo);
        r.clock = std::move(pressed);  // the clock before the move, in either case
        r.clock_started = was_started;
        r.san.pop_back();
        r.clock_after_ply.pop_back();
        r.row.moves.resize(size_t(r.game.ply()));
        return ProtocolError{"internal", "the move could not be stored: " + saved.error().message, 500};
    }
    return true;
}

void Hub::handle_message(const std::string& id, Seat seat, std::string_view text, Subscriber& from, Millis lag_ms) {
    auto reply_error = [&](const ProtocolError& e) { from.deliver(std::make_shared<const std::string>(error_json(e))); };
    auto parsed = parse_object(text, MaxMessageBytes);
    if (auto* e = std::get_if<ProtocolError>(&parsed)) return reply_error(*e);
    const json& j = std::get<json>(parsed);
    auto t = j.find("t");
    if (t == j.end() || !t->is_string()) return reply_error(bad_request("field 't' (the message type) is missing"));
    const std::string type = t->get<std::string>();
    MessageFields m;
    for (auto err : {read_field(j, "uci", m.uci), read_field(j, "san", m.san), read_field(j, "action", m.action),
                     read_field(j, "claim", m.claim)})
        if (err) return reply_error(*err);
    for (auto err : {read_field(j, "seconds", m.seconds), read_field(j, "ply", m.ply), read_field(j, "lag_ms", m.lag_ms)})
        if (err) return reply_error(*err);
    // C5: the lag credited is what the server measured on the connection (lag_ms); the
    // client's own estimate may lower it, never raise it (a claim of 300 ms let a client
    // play without its clock running). The clock's LagQuota bounds it over many moves.
    if (m.lag_ms) lag_ms = std::min<Millis>(lag_ms, std::max<Millis>(0, *m.lag_ms));

    std::lock_guard lock(mutex_);
    if (type == "ping") {
        from.deliver(std::make_shared<const std::string>(
            json{{"v", 1}, {"t", "pong"}, {"server_time", env_.monotonic_ms()}}.dump()));
        return;
    }
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return reply_error({"not_found", "no game with id '" + id.substr(0, 64) + "'", 404});
    Room& r = *it->second;
    if (type == "sync") {
        // A client that missed a message asks for the whole state again.
        from.deliver(std::make_shared<const std::string>(state_for(r, seat)));
        return;
    }
    const bool was_over = r.game.is_over();
    const int ply_before = r.game.ply();
    auto done = act(r, seat, type, m, lag_ms);
    if (auto* e = std::get_if<ProtocolError>(&done)) {
        reply_error(*e);
        if (!was_over && r.game.is_over()) broadcast(r);  // a flag fell as the move came in
        return;
    }
    after_change(r, (type == "move" || type == "claim") && r.game.ply() == ply_before + 1);
}

Answer<bool> Hub::act(Room& r, Seat seat, std::string_view type, const MessageFields& m, Millis lag_ms) {
    if (seat == Seat::SPECTATOR) return ProtocolError{"not_your_seat", "spectators cannot act in a game", 403};
    Game& g = r.game;
    const Color turn = g.side_to_move();
    // The colour acting: the seat's, or in a hotseat game the side to move.
    const Color me = seat_color(seat).value_or(turn);

    if (type == "move" || type == "claim") {
        std::optional<DrawClaim> claim;
        if (type == "claim") {
            if (!m.claim) return bad_request("field 'claim' is missing");
            if (*m.claim == "threefold-repetition") claim = DrawClaim::THREEFOLD_REPETITION;
            else if (*m.claim == "fifty-moves") claim = DrawClaim::FIFTY_MOVES;
            else return bad_request("claim must be 'threefold-repetition' or 'fifty-moves'");
            if (g.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(g.outcome()), 409};
            if (turn != me) return ProtocolError{"not_your_turn", "only the player to move can claim a draw", 409};
            if (!m.uci && !m.san) {
                auto r2 = g.claim_draw(*claim);
                if (!r2) return not_allowed(r2.error().message);
                if (r.clock) r.clock->stop();
                if (auto s = persist(r); !s) return ProtocolError{"internal", s.error().message, 500};
                return true;
            }
        }
        if (g.is_over()) return ProtocolError{"game_over", "the game is over: " + describe(g.outcome()), 409};
        if (turn != me || r.robot(turn)) return ProtocolError{"not_your_turn", "it is not your turn", 409};
        if (m.ply && *m.ply != g.ply()) return ProtocolError{"not_your_turn", "the move was made for another position (stale premove)", 409};
        Result<Move> move = make_error("field 'uci' or 'san' is missing");
        if (m.uci) move = move_from_uci(g.position(), *m.uci);
        else if (m.san) move = move_from_san(g.position(), *m.san);
        else return bad_request("field 'uci' or 'san' is missing");
        if (!move) return ProtocolError{"illegal_move", move.error().message, 400};
        return apply_move(r, turn, *move, lag_ms, claim);
    }
    if (g.is_over() && type != "rematch")
        return ProtocolError{"game_over", "the game is over: " + describe(g.outcome()), 409};

    auto saved = [&]() -> Answer<bool> {
        if (auto s = persist(r); !s) return ProtocolError{"internal", s.error().message, 500};
        return true;
    };
    const Color them = ~me;

    if (type == "resign") {
        (void)g.resign(me);
        if (r.clock) r.clock->stop();
        return saved();
    }
    if (type == "abort") {
        auto a = g.abort();
        if (!a) return not_allowed(a.error().message);
        if (r.clock) r.clock->stop();
        return saved();
    }
    if (type == "draw") {
        if (!m.action) return bad_request("field 'action' (offer, accept or decline) is missing");
        Result<Outcome> res = make_error("");
        if (*m.action == "offer") {
            res = g.offer_draw(me);
            // The robot declines offers: it plays on (it is told nothing it could misjudge).
            if (res && r.robot(them) && g.draw_offer() == me) (void)g.decline_draw(them);
        } else if (*m.action == "accept") res = g.accept_draw(me);
        else if (*m.action == "decline") res = g.decline_draw(me);
        else return bad_request("action must be offer, accept or decline");
        if (!res) return not_allowed(res.error().message);
        if (g.is_over() && r.clock) r.clock->stop();
        return saved();
    }
    if (type == "takeback") {
        if (!m.action) return bad_request("field 'action' (request, accept or decline) is missing");
        auto take = [&](Color requester) -> Answer<bool> {
            int plies = turn == requester ? 2 : 1;
            if (seat == Seat::BOTH) plies = 1;
            plies = std::min(plies, g.ply());
            if (plies == 0) return not_allowed("there is no move to take back");
            auto res = g.takeback(plies);
            if (!res) return not_allowed(res.error().message);
            r.san.resize(r.san.size() - size_t(plies));
            r.clock_after_ply.resize(r.clock_after_ply.size() - size_t(plies));
            r.takeback_request.reset();
            r.robot_asked_ply = -1;
            r.robot_request = 0;  // an answer still coming is for the position taken back
            if (env_.cancel_robot) env_.cancel_robot(r.row.id);
            if (r.clock && r.clock->running() && g.ply() >= 2) {
                // The clock of the side to move now runs; times stay as they were.
                const Millis w = r.clock->remaining(WHITE), b = r.clock->remaining(BLACK);
                r.clock->stop();
                r.clock->set_remaining(WHITE, w);
                r.clock->set_remaining(BLACK, b);
                r.clock->start(g.side_to_move());
            }
            return saved();
        };
        if (*m.action == "request") {
            if (seat == Seat::BOTH) return take(me);
            if (r.robot(them)) {
                if (!r.row.casual) return not_allowed("the robot grants takebacks only in casual games");
                return take(me);
            }
            if (r.takeback_request == them) return take(them);
            r.takeback_request = me;
            return saved();
        }
        if (*m.action == "accept") {
            if (r.takeback_request != them) return not_allowed("there is no takeback request to accept");
            return take(them);
        }
        if (*m.action == "decline") {
            if (r.takeback_request != them) return not_allowed("there is no takeback request to decline");
            r.takeback_request.reset();
            return saved();
        }
        return bad_request("action must be request, accept or decline");
    }
    if (type == "give_time") {
        if (!m.seconds || *m.seconds < 1 || *m.seconds > 3600) return bad_request("field 'seconds' must be 1 to 3600");
        if (!r.clock) return not_allowed("this game has no clock");
        if (seat == Seat::BOTH) return not_allowed("give time to an opponent on another device");
        r.clock->add_time(them, Millis(*m.seconds) * 1000);
        return saved();
    }
    if (type == "rematch") {
        if (!g.is_over()) return not_allowed("a rematch is offered after the game");
        if (!r.row.rematch_game.empty()) return true;  // already arranged
        if (!m.action || (*m.action != "offer" && *m.action != "accept")) return bad_request("action must be offer or accept");
        const bool robot_game = r.robot(WHITE) || r.robot(BLACK);
        if (*m.action == "offer" && !robot_game && seat != Seat::BOTH && r.rematch_offer != them) {
            r.rematch_offer = me;
            return true;
        }
        if (*m.action == "accept" && !robot_game && seat != Seat::BOTH && r.rematch_offer != them)
            return not_allowed("there is no rematch offer to accept");
        // Colours swap; the same time control, variant and level.
        NewGame spec;
        const Color human = robot_game ? (r.robot(WHITE) ? BLACK : WHITE) : WHITE;
        spec.opponent = seat == Seat::BOTH ? "hotseat" : robot_game ? "robot" : "invite";
        spec.creator_color = robot_game ? ~human : BLACK;  // the creator is the old white (or the human)
        spec.level = r.row.robot_level;
        spec.elo = r.row.robot_elo;
        spec.time_control = r.row.time_control;
        spec.chess960 = r.row.variant == "chess960" && r.row.chess960 >= 0;
        if (spec.chess960) spec.chess960_number = r.row.chess960;
        if (r.row.chess960 < 0 && r.row.initial_fen != to_fen(Position::startpos())) spec.fen = r.row.initial_fen;
        spec.casual = r.row.casual;
        spec.name = human == WHITE ? r.row.white_name : r.row.black_name;
        spec.opponent_name = robot_game ? "" : r.row.black_name;
        if (seat == Seat::BOTH) {
            spec.name = r.row.black_name;
            spec.opponent_name = r.row.white_name;
        }
        auto created = create_room(spec, r.row.id);
        if (auto* e = std::get_if<ProtocolError>(&created)) return *e;
        const CreatedGame& c = std::get<CreatedGame>(created);
        r.row.rematch_game = c.id;
        if (seat == Seat::BOTH) {
            r.rematch_tokens[WHITE] = r.rematch_tokens[BLACK] = *c.white_token;
        } else if (robot_game) {
            r.rematch_tokens[human] = human == WHITE ? *c.black_token : *c.white_token;
        } else {
            r.rematch_tokens[WHITE] = *c.black_token;
            r.rematch_tokens[BLACK] = *c.white_token;
        }
        r.rematch_offer.reset();
        return saved();
    }
    return bad_request("unknown message type '" + std::string(type.substr(0, 32)) + "'");
}

}  // namespace outpost::server
