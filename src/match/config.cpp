// Outpost — the reader of `outpost match` arguments.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/config.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace outpost::match {

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

template <class T>
Result<T> parse_number(const std::string& text, const std::string& what) {
    T value{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return make_error(what + ": '" + text + "' is not a number");
    return value;
}

Result<int> parse_positive(const std::string& text, const std::string& what, int min = 1) {
    auto v = parse_number<int>(text, what);
    if (!v) return v;
    if (*v < min) return make_error(what + " must be at least " + std::to_string(min) + ", not " + text);
    return v;
}

Result<bool> parse_bool(const std::string& text, const std::string& what) {
    if (text == "on" || text == "true" || text == "yes" || text == "1") return true;
    if (text == "off" || text == "false" || text == "no" || text == "0") return false;
    return make_error(what + ": '" + text + "' is not on/off");
}

bool is_option(const std::string& word) { return word.size() > 1 && word[0] == '-' && !std::isdigit(word[1]); }

// The words after an option up to the next option: all must be key=value.
Result<KeyValues> take_key_values(const std::vector<std::string>& args, std::size_t& i, const std::string& option) {
    KeyValues kv;
    while (i + 1 < args.size() && !is_option(args[i + 1])) {
        const std::string& word = args[++i];
        const auto eq = word.find('=');
        if (eq == std::string::npos || eq == 0) return make_error(option + ": expected key=value, got '" + word + "'");
        kv.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    }
    return kv;
}

Result<std::string> take_value(const std::vector<std::string>& args, std::size_t& i, const std::string& option) {
    if (i + 1 >= args.size() || (is_option(args[i + 1]) && args[i + 1].size() > 1))
        return make_error(option + " needs a value");
    return args[++i];
}

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

// Applies one engine key. `tc_given` records that some time limit was set.
Result<bool> apply_engine_key(EngineConfig& e, bool& tc_given, const std::string& key, const std::string& value,
                              const std::string& who) {
    const std::string what = who + " " + key;
    if (key == "cmd") {
        // A command with spaces ("outpost uci") is a program and its arguments.
        e.command = split_words(value);
        if (e.command.empty()) return make_error(what + " is empty");
    } else if (key == "arg") {
        e.command.push_back(value);
    } else if (key == "name") {
        e.name = value;
    } else if (key == "dir") {
        e.dir = value;
    } else if (key.rfind("option.", 0) == 0) {
        if (key.size() == 7) return make_error(who + ": option. needs a name (option.Hash=16)");
        e.options.emplace_back(key.substr(7), value);
    } else if (key == "tc") {
        auto tc = parse_tc(value);
        if (!tc) return make_error(who + ": " + tc.error().message);
        e.tc.moves = tc->moves;
        e.tc.base = tc->base;
        e.tc.increment = tc->increment;
        e.tc.infinite = tc->infinite;
        tc_given = true;
    } else if (key == "st") {
        auto ms = parse_seconds(value);
        if (!ms || *ms <= 0) return make_error(what + ": '" + value + "' is not a positive number of seconds");
        e.tc.per_move = *ms;
        tc_given = true;
    } else if (key == "depth") {
        auto d = parse_positive(value, what);
        if (!d) return d.error();
        e.tc.depth = *d;
    } else if (key == "nodes") {
        auto n = parse_number<std::int64_t>(value, what);
        if (!n || *n <= 0) return make_error(what + ": '" + value + "' is not a positive number");
        e.tc.nodes = *n;
    } else if (key == "timemargin") {
        auto m = parse_number<int>(value, what + " (milliseconds)");
        if (!m || *m < 0) return make_error(what + ": '" + value + "' is not a number of milliseconds");
        e.tc.margin = *m;
    } else if (key == "proto") {
        if (value != "uci") return make_error(what + ": only the uci protocol is supported, not '" + value + "'");
    } else if (key == "restart") {
        auto b = parse_bool(value, what);
        if (!b) return b.error();
        e.restart = *b;
    } else if (key == "ponder") {
        return make_error(who + ": pondering is not supported");
    } else {
        return make_error(who + ": unknown engine setting '" + key +
                          "' (cmd, name, dir, arg, option.NAME, tc, st, depth, nodes, timemargin, restart, proto)");
    }
    return true;
}

}  // namespace

int MatchConfig::total_games() const {
    const int n = int(engines.size());
    const int pairs = pairing == Pairing::GAUNTLET ? n - 1 : n * (n - 1) / 2;
    return pairs * games * rounds;
}

Result<MatchConfig> parse_match_args(const std::vector<std::string>& args) {
    MatchConfig cfg;
    std::vector<KeyValues> engine_keys;
    KeyValues each_keys;
    bool openings_given = false, format_given = false;

    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string opt = args[i];
        if (!is_option(opt)) return make_error("unexpected argument '" + opt + "' (options start with '-')");
        const std::string shown = opt;
        if (opt.rfind("--", 0) == 0) opt.erase(0, 1);  // --engine and -engine are the same

        if (opt == "-help" || opt == "-h") {
            cfg.help = true;
            return cfg;
        } else if (opt == "-engine" || opt == "-each") {
            auto kv = take_key_values(args, i, shown);
            if (!kv) return kv.error();
            if (opt == "-each") {
                each_keys.insert(each_keys.end(), kv->begin(), kv->end());
            } else {
                if (kv->empty()) return make_error(shown + " needs settings (cmd=PROGRAM ...)");
                engine_keys.push_back(*kv);
            }
        } else if (opt == "-openings") {
            auto kv = take_key_values(args, i, shown);
            if (!kv) return kv.error();
            openings_given = true;
            for (const auto& [key, value] : *kv) {
                if (key == "file") {
                    cfg.openings.file = value;
                } else if (key == "format") {
                    if (value != "epd" && value != "pgn")
                        return make_error("-openings format must be epd or pgn, not '" + value + "'");
                    cfg.openings.format = value == "epd" ? OpeningFormat::EPD : OpeningFormat::PGN;
                    format_given = true;
                } else if (key == "order") {
                    if (value != "random" && value != "sequential")
                        return make_error("-openings order must be random or sequential, not '" + value + "'");
                    cfg.openings.random_order = value == "random";
                } else if (key == "plies") {
                    auto p = parse_positive(value, "-openings plies", 0);
                    if (!p) return p.error();
                    cfg.openings.plies = *p;
                } else if (key == "start") {
                    auto s = parse_positive(value, "-openings start");
                    if (!s) return s.error();
                    cfg.openings.start = *s;
                } else if (key == "policy") {
                    // Openings change per encounter here; accepted for compatibility.
                } else {
                    return make_error("-openings: unknown setting '" + key + "' (file, format, order, plies, start)");
                }
            }
        } else if (opt == "-games" || opt == "-rounds" || opt == "-concurrency" || opt == "-maxmoves") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            auto n = parse_positive(*v, shown);
            if (!n) return n.error();
            (opt == "-games"         ? cfg.games
             : opt == "-rounds"      ? cfg.rounds
             : opt == "-concurrency" ? cfg.concurrency
                                     : cfg.adjudication.max_moves) = *n;
        } else if (opt == "-repeat") {
            cfg.repeat = 2;
            if (i + 1 < args.size() && !is_option(args[i + 1])) {
                auto n = parse_positive(args[++i], shown);
                if (!n) return n.error();
                cfg.repeat = *n;
            }
        } else if (opt == "-draw" || opt == "-resign") {
            auto kv = take_key_values(args, i, shown);
            if (!kv) return kv.error();
            const bool draw = opt == "-draw";
            bool count_given = false, score_given = false;
            for (const auto& [key, value] : *kv) {
                const std::string what = shown + " " + key;
                if (key == "movenumber" && draw) {
                    auto n = parse_positive(value, what, 0);
                    if (!n) return n.error();
                    cfg.adjudication.draw_move_number = *n;
                } else if (key == "movecount") {
                    auto n = parse_positive(value, what);
                    if (!n) return n.error();
                    (draw ? cfg.adjudication.draw_move_count : cfg.adjudication.resign_move_count) = *n;
                    count_given = true;
                } else if (key == "score") {
                    auto n = parse_positive(value, what, 0);
                    if (!n) return n.error();
                    (draw ? cfg.adjudication.draw_score : cfg.adjudication.resign_score) = *n;
                    score_given = true;
                } else if (key == "twosided" && !draw) {
                    auto b = parse_bool(value, what);
                    if (!b) return b.error();
                    cfg.adjudication.resign_two_sided = *b;
                } else {
                    return make_error(shown + ": unknown setting '" + key + "' (" +
                                      (draw ? "movenumber, movecount, score" : "movecount, score, twosided") + ")");
                }
            }
            if (!count_given || !score_given) return make_error(shown + " needs movecount= and score=");
        } else if (opt == "-pgnout") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            cfg.pgn_out = *v;
        } else if (opt == "-sprt") {
            auto kv = take_key_values(args, i, shown);
            if (!kv) return kv.error();
            SprtConfig s;
            for (const auto& [key, value] : *kv) {
                auto v = parse_number<double>(value, "-sprt " + key);
                if (!v) return v.error();
                if (key == "elo0")
                    s.elo0 = *v;
                else if (key == "elo1")
                    s.elo1 = *v;
                else if (key == "alpha")
                    s.alpha = *v;
                else if (key == "beta")
                    s.beta = *v;
                else
                    return make_error("-sprt: unknown setting '" + key + "' (elo0, elo1, alpha, beta)");
            }
            if (!(s.elo0 < s.elo1)) return make_error("-sprt: elo0 must be less than elo1");
            if (!(s.alpha > 0 && s.alpha < 1 && s.beta > 0 && s.beta < 1 && s.alpha + s.beta < 1))
                return make_error("-sprt: alpha and beta must lie between 0 and 1, with alpha + beta < 1");
            cfg.sprt = s;
        } else if (opt == "-chess960") {
            cfg.chess960 = true;
        } else if (opt == "-variant") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            if (*v == "fischerandom" || *v == "chess960")
                cfg.chess960 = true;
            else if (*v != "standard")
                return make_error("-variant: only standard and chess960 are supported");
        } else if (opt == "-tournament") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            if (*v == "round-robin")
                cfg.pairing = Pairing::ROUND_ROBIN;
            else if (*v == "gauntlet")
                cfg.pairing = Pairing::GAUNTLET;
            else
                return make_error("-tournament must be round-robin or gauntlet, not '" + *v + "'");
        } else if (opt == "-seed" || opt == "-srand") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            auto n = parse_number<std::uint64_t>(*v, shown);
            if (!n) return n.error();
            cfg.seed = *n;
        } else if (opt == "-event" || opt == "-site") {
            auto v = take_value(args, i, shown);
            if (!v) return v.error();
            (opt == "-event" ? cfg.event : cfg.site) = *v;
        } else if (opt == "-debug") {
            cfg.debug = true;
        } else {
            return make_error("unknown option '" + shown + "' (see outpost match -help)");
        }
    }

    // Engines: -each first, then the engine's own settings, which win.
    if (engine_keys.size() < 2) return make_error("at least two engines are needed (-engine cmd=PROGRAM, twice)");
    for (std::size_t n = 0; n < engine_keys.size(); ++n) {
        EngineConfig e;
        bool tc_given = false;
        const std::string who = "engine " + std::to_string(n + 1);
        for (const auto& [key, value] : each_keys)
            if (auto r = apply_engine_key(e, tc_given, key, value, "-each"); !r) return r.error();
        for (const auto& [key, value] : engine_keys[n])
            if (auto r = apply_engine_key(e, tc_given, key, value, who); !r) return r.error();
        const std::string shown = e.name.empty() ? who : "engine '" + e.name + "'";
        if (e.command.empty()) return make_error(who + " has no cmd= (the program to run)");
        if (!tc_given && e.tc.depth == 0 && e.tc.nodes == 0)
            return make_error(shown + " has no time control: give tc=, st=, depth= or nodes= (with -engine or -each)");
        if (!tc_given) e.tc.infinite = true;  // depth or nodes alone
        if (e.tc.infinite && e.tc.per_move == 0 && e.tc.depth == 0 && e.tc.nodes == 0)
            return make_error(shown + ": tc=inf needs depth= or nodes=");
        cfg.engines.push_back(std::move(e));
    }
    if (cfg.sprt && cfg.engines.size() != 2) return make_error("-sprt needs exactly two engines");
    if (openings_given) {
        if (cfg.openings.file.empty()) return make_error("-openings needs file=");
        if (!format_given) {
            const auto dot = cfg.openings.file.rfind('.');
            const std::string ext = dot == std::string::npos ? "" : cfg.openings.file.substr(dot + 1);
            if (ext == "pgn" || ext == "PGN")
                cfg.openings.format = OpeningFormat::PGN;
            else if (ext == "epd" || ext == "EPD" || ext == "fen")
                cfg.openings.format = OpeningFormat::EPD;
            else
                return make_error("-openings: give format=epd or format=pgn for '" + cfg.openings.file + "'");
        }
    }
    return cfg;
}

std::string match_usage() {
    return R"(outpost match: play UCI engines against each other, refereed by the rules core

Usage: outpost match -engine SETTINGS... -engine SETTINGS... [options]

Engines (two or more; round-robin unless -tournament gauntlet):
  -engine cmd=PROGRAM [name=NAME] [dir=DIR] [arg=ARG]... [option.NAME=VALUE]...
          [tc=TC] [st=SECONDS] [depth=N] [nodes=N] [timemargin=MS] [restart=on|off]
  -each SETTINGS...        settings for every engine (an engine's own settings win)
  Time control tc: 10+0.1 (seconds + increment), 40/60+0.6 (40 moves in 60 s),
  1:30+1 (minutes:seconds), inf (with depth= or nodes=); st=1: one second a move.
  timemargin=MS: how far past its time an engine may answer (default 0).

Games:
  -games N                 games per pair in each round (default 1)
  -rounds N                rounds (default 1)
  -repeat [N]              play each opening N times (default 2), colours swapped
  -concurrency N           games at once, each with its own engine processes
  -openings file=FILE [format=epd|pgn] [order=random|sequential] [plies=N] [start=N]
  -chess960                Chess960 (random start positions without openings)
  -seed N                  seed for random openings and Chess960 positions
  -tournament round-robin|gauntlet

Adjudication:
  -draw movenumber=N movecount=N score=CP   both scores within CP for N moves each
  -resign movecount=N score=CP [twosided=on] a score at or below -CP for N moves
  -maxmoves N              draw after N full moves

Output:
  -pgnout FILE             append every game to FILE
  -event NAME, -site NAME  PGN tags
  -sprt elo0=E0 elo1=E1 alpha=A beta=B     stop when H0 or H1 is accepted
  -debug                   show the engine traffic on stderr

Example:
  outpost match -engine cmd=stockfish name=SF1 -engine cmd=stockfish name=SF2 \
      option.UCI_LimitStrength=true option.UCI_Elo=1500 -each tc=10+0.1 \
      -openings file=book.epd order=random -games 2 -repeat -rounds 50 -concurrency 2 \
      -pgnout games.pgn
)";
}

}  // namespace outpost::match
