// Outpost — the UCI protocol.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/uci_protocol.h"

#include <charconv>
#include <sstream>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

namespace outpost::engine {
namespace {

std::vector<std::string> split(std::string_view line) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        std::size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
        if (j > i) out.emplace_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

bool parse_int64(const std::string& s, std::int64_t& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string uci_score(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return "mate " + std::to_string((VALUE_MATE - v + 1) / 2);
    if (v <= VALUE_MATED_IN_MAX_PLY) return "mate " + std::to_string(-(VALUE_MATE + v) / 2);
    return "cp " + std::to_string(v);
}

UciSession::UciSession(Output out) : out_(std::move(out)) {
    engine_.set_info_handler([this](const SearchInfo& info) { on_info(info); });
    engine_.set_bestmove_handler([this](Move best, Move ponder) { on_bestmove(best, ponder); });
}

UciSession::~UciSession() {
    engine_.stop();
    engine_.wait();
}

void UciSession::send(const std::string& line) {
    std::lock_guard lock(out_mutex_);
    out_(line);
}

void UciSession::on_info(const SearchInfo& info) {
    std::string s = "info depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) +
                    " multipv " + std::to_string(info.multipv) + " score " + uci_score(info.score);
    if (info.bound == BOUND_LOWER) s += " lowerbound";
    else if (info.bound == BOUND_UPPER) s += " upperbound";
    if (engine_.show_wdl()) {
        int w = 0, d = 0, l = 0;
        wdl_from_score(info.score, w, d, l);
        s += " wdl " + std::to_string(w) + " " + std::to_string(d) + " " + std::to_string(l);
    }
    s += " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(info.nps) + " hashfull " +
         std::to_string(info.hashfull) + " time " + std::to_string(info.time_ms);
    if (!info.pv.empty()) {
        s += " pv";
        // Print the line move by move from the root, stopping at anything that is
        // not legal (a torn table entry can never reach the output that way).
        Position p = engine_.position();
        for (Move m : info.pv) {
            if (!p.is_legal(m)) break;
            s += " " + move_to_uci(p, m);
            p.do_move(m);
        }
    }
    send(s);
}

void UciSession::on_bestmove(Move best, Move ponder) {
    const Position& pos = engine_.position();
    std::string s = "bestmove " + (best ? move_to_uci(pos, best) : std::string("0000"));
    if (best && ponder) {
        const Position after = pos.after(best);
        if (after.is_legal(ponder)) s += " ponder " + move_to_uci(after, ponder);
    }
    send(s);
}

void UciSession::cmd_uci() {
    send("id name Outpost");
    send("id author The Outpost developers");
    for (const OptionSpec& o : Engine::option_specs()) {
        std::string s = "option name " + o.name + " type ";
        switch (o.type) {
        case OptionSpec::SPIN:
            s += "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
            break;
        case OptionSpec::CHECK: s += "check default " + o.default_value; break;
        case OptionSpec::BUTTON: s += "button"; break;
        case OptionSpec::STRING: s += "string default " + o.default_value; break;
        }
        send(s);
    }
    // What each level is meant to be; UCI has no field for option descriptions.
    send("info string " + level_description());
    send("uciok");
}

void UciSession::cmd_setoption(const std::vector<std::string>& tokens) {
    std::string name, value;
    std::string* target = nullptr;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        if (tokens[i] == "name" && !target) target = &name;
        else if (tokens[i] == "value" && target == &name) target = &value;
        else if (target) *target += (target->empty() ? "" : " ") + tokens[i];
    }
    if (name.empty()) {
        send("info string error: setoption needs 'name <id> [value <x>]'");
        return;
    }
    auto r = engine_.set_option(name, value);
    if (!r) send("info string error: " + r.error().message);
}

void UciSession::cmd_position(const std::vector<std::string>& tokens) {
    std::size_t i = 1;
    const bool chess960 = engine_.chess960();
    Position root = Position::startpos();
    if (i < tokens.size() && tokens[i] == "startpos") {
        root.set_chess960(chess960);
        ++i;
    } else if (i < tokens.size() && tokens[i] == "fen") {
        std::string fen;
        for (++i; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
        auto p = position_from_fen(fen, chess960);
        if (!p) {
            send("info string error: bad FEN: " + p.error().message + " (position unchanged)");
            return;
        }
        root = *p;
    } else {
        send("info string error: position needs 'startpos' or 'fen <fen>' (position unchanged)");
        return;
    }
    std::vector<Move> moves;
    if (i < tokens.size()) {
        if (tokens[i] != "moves") {
            send("info string error: unexpected '" + tokens[i] + "' in position (position unchanged)");
            return;
        }
        Position p = root;
        for (++i; i < tokens.size(); ++i) {
            auto m = move_from_uci(p, tokens[i]);
            if (!m) {
                send("info string error: " + m.error().message + " (move " + std::to_string(moves.size() + 1) +
                     "; position unchanged)");
                return;
            }
            moves.push_back(*m);
            p.do_move(*m);
        }
    }
    auto r = engine_.set_position(root, moves);
    if (!r) send("info string error: " + r.error().message);
}

void UciSession::cmd_go(const std::vector<std::string>& tokens) {
    Limits limits;
    const Position& pos = engine_.position();
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t == "infinite") {
            limits.infinite = true;
        } else if (t == "ponder") {
            limits.ponder = true;
        } else if (t == "searchmoves") {
            while (i + 1 < tokens.size()) {
                auto m = move_from_uci(pos, tokens[i + 1]);
                if (!m) break;
                limits.searchmoves.push_back(*m);
                ++i;
            }
        } else if (t == "wtime" || t == "btime" || t == "winc" || t == "binc" || t == "movestogo" || t == "depth" ||
                   t == "nodes" || t == "mate" || t == "movetime") {
            std::int64_t v = 0;
            if (i + 1 >= tokens.size() || !parse_int64(tokens[i + 1], v)) {
                send("info string error: go " + t + " needs a number");
                continue;
            }
            ++i;
            // Some GUIs send a negative time once the flag has fallen: treat it as
            // no time at all, not as "no limit".
            if (t == "wtime") limits.time[WHITE] = std::max<std::int64_t>(v, 1);
            else if (t == "btime") limits.time[BLACK] = std::max<std::int64_t>(v, 1);
            else if (t == "winc") limits.inc[WHITE] = std::max<std::int64_t>(v, 0);
            else if (t == "binc") limits.inc[BLACK] = std::max<std::int64_t>(v, 0);
            else if (t == "movestogo") limits.movestogo = int(std::clamp<std::int64_t>(v, 0, 1000));
            else if (t == "depth") limits.depth = int(std::clamp<std::int64_t>(v, 1, MAX_PLY - 1));
            else if (t == "nodes") limits.nodes = std::uint64_t(std::max<std::int64_t>(v, 1));
            else if (t == "mate") limits.mate = int(std::clamp<std::int64_t>(v, 1, MAX_PLY / 2));
            else limits.movetime = std::max<std::int64_t>(v, 1);
        } else {
            send("info string error: unknown go parameter '" + t + "'");
        }
    }
    // `go mate N` without other limits: searching deep enough finds any mate in N.
    if (limits.mate && !limits.depth && !limits.uses_time() && !limits.nodes && !limits.infinite)
        limits.depth = std::min(2 * limits.mate + 1 + 6, MAX_PLY - 1);
    if (!pos.has_legal_moves())
        send(std::string("info depth 0 score ") + (pos.in_check() ? "mate 0" : "cp 0"));
    engine_.go(limits);
}

void UciSession::cmd_display() {
    const Position& pos = engine_.position();
    std::ostringstream s;
    for (int r = 7; r >= 0; --r) {
        send(" +---+---+---+---+---+---+---+---+");
        std::string row = " |";
        for (int f = 0; f < 8; ++f) {
            const Piece p = pos.piece_on(make_square(File(f), Rank(r)));
            char c = ' ';
            if (p != NO_PIECE) {
                c = "PNBRQK"[type_of(p)];
                if (color_of(p) == BLACK) c = char(c - 'A' + 'a');
            }
            row += std::string(" ") + c + " |";
        }
        send(row + " " + std::to_string(r + 1));
    }
    send(" +---+---+---+---+---+---+---+---+");
    send("   a   b   c   d   e   f   g   h");
    send("");
    send("Fen: " + to_fen(pos));
    std::ostringstream key;
    key << std::hex << std::uppercase << pos.key();
    send("Key: " + key.str());
    std::string checkers = "Checkers:";
    for (Bitboard b = pos.checkers(); b;) checkers += " " + square_name(pop_lsb(b));
    send(checkers);
}

bool UciSession::handle(std::string_view line) {
    const auto tokens = split(line);
    if (tokens.empty()) return true;
    const std::string& cmd = tokens[0];
    if (cmd == "uci") cmd_uci();
    else if (cmd == "isready") send("readyok");
    else if (cmd == "ucinewgame") engine_.new_game();
    else if (cmd == "position") cmd_position(tokens);
    else if (cmd == "go") cmd_go(tokens);
    else if (cmd == "stop") engine_.stop();
    else if (cmd == "ponderhit") engine_.ponderhit();
    else if (cmd == "setoption") cmd_setoption(tokens);
    else if (cmd == "d") cmd_display();
    else if (cmd == "debug" || cmd == "register") {
        // Accepted and ignored: no debug output, no registration needed.
    } else if (cmd == "quit") {
        engine_.stop();
        engine_.wait();
        return false;
    } else {
        send("info string unknown command: " + std::string(line.substr(0, 200)));
    }
    return true;
}

void UciSession::loop(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle(line)) return;
    // End of input is an implicit quit: finish the search and deliver its move.
    engine_.stop();
    engine_.wait();
}

int run_uci(std::istream& in, std::ostream& out) {
    UciSession session([&out](std::string_view line) {
        out << line << '\n';
        out.flush();
    });
    session.loop(in);
    return 0;
}

}  // namespace outpost::engine
