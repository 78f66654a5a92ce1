// Outpost — a subcommand's settings from the environment and a TOML file: reading the
// file with toml++, matching its keys to the long options, and giving each option its
// value through CLI11's own checks, so that a value is refused with the same words
// wherever it comes from, plus where it was written.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/config_file.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include <toml++/toml.h>

namespace outpost::app {

namespace {

// "FILE:LINE:COLUMN" of a place in the file.
std::string where(const std::string& path, const toml::source_region& at) {
    return path + ":" + std::to_string(at.begin.line) + ":" + std::to_string(at.begin.column);
}

std::string normalised_key(std::string key) {
    for (char& c : key)
        if (c == '_') c = '-';
    return key;
}

// The long name an option is known by ("io-threads"); "" for one without.
std::string long_name(const CLI::Option& opt) { return opt.get_lnames().empty() ? "" : opt.get_lnames().front(); }

bool is_setting(const CLI::Option& opt, const CLI::Option* config) {
    return &opt != config && !long_name(opt).empty() && long_name(opt) != "help";
}

// The inputs of a TOML value as CLI11 takes them on a command line; none when the
// value is of a kind no option takes (a table, a date).
std::optional<std::vector<std::string>> inputs_of(const toml::node& value) {
    if (auto s = value.as_string()) return std::vector<std::string>{s->get()};
    if (auto i = value.as_integer()) return std::vector<std::string>{std::to_string(i->get())};
    if (auto f = value.as_floating_point()) {
        std::ostringstream out;
        out << f->get();
        return std::vector<std::string>{out.str()};
    }
    if (auto b = value.as_boolean()) return std::vector<std::string>{b->get() ? "true" : "false"};
    if (auto a = value.as_array()) {
        std::vector<std::string> all;
        for (const toml::node& element : *a) {
            auto one = inputs_of(element);
            if (!one || element.is_array()) return std::nullopt;
            all.insert(all.end(), one->begin(), one->end());
        }
        return all;
    }
    return std::nullopt;
}

// Gives `opt` its inputs and runs its checks and its callback; an error names `place`.
void set_option(CLI::Option& opt, const std::vector<std::string>& inputs, const std::string& place) {
    const std::string name = "--" + long_name(opt);
    try {
        const bool flag = opt.get_items_expected_max() == 0;
        if (flag) {
            if (inputs.size() != 1) throw CLI::ValidationError(name, "a flag takes one value: true or false");
            const std::string& v = inputs.front();
            if (v != "true" && v != "false" && v != "1" && v != "0")
                throw CLI::ValidationError(name, "'" + v + "' is not true or false");
            opt.add_result(opt.get_flag_value(name, v));
        } else {
            if (inputs.empty()) throw CLI::ValidationError(name, "no value");
            if (inputs.size() > 1 && opt.get_items_expected_max() == 1)
                throw CLI::ValidationError(name, "takes one value, not a list");
            for (const std::string& v : inputs) opt.add_result(v);
        }
        opt.run_callback();
    } catch (const CLI::Error& e) {
        throw CLI::ValidationError(place + ": " + e.what());
    }
}

}  // namespace

std::string environment_name(const std::string& prefix, const std::string& name) {
    std::string out = prefix;
    for (char c : name) out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

void apply_environment_and_file(CLI::App& cmd, const std::string& prefix, const std::string& path,
                                const CLI::Option* config) {
    // The file first, whole: an unknown key or a broken file is refused even when every
    // option it names is also given some other way.
    std::map<std::string, std::pair<std::vector<std::string>, std::string>> from_file;  // name -> inputs, place
    if (!path.empty()) {
        toml::table table;
        try {
            table = toml::parse_file(path);
        } catch (const toml::parse_error& e) {
            const auto& at = e.source();
            std::string file = at.path ? std::string(*at.path) : path;
            if (at.begin.line == 0) throw CLI::ValidationError(path + ": cannot be read: " + std::string(e.description()));
            throw CLI::ValidationError(where(file, at) + ": " + std::string(e.description()));
        }
        for (const auto& [key, value] : table) {
            const std::string name = normalised_key(std::string(key.str()));
            const std::string place = where(path, key.source());
            CLI::Option* opt = cmd.get_option_no_throw("--" + name);
            if (!opt || !is_setting(*opt, config))
                throw CLI::ValidationError(place + ": unknown key '" + std::string(key.str()) + "' (`outpost " +
                                           cmd.get_name() + " --help` lists the settings)");
            auto inputs = inputs_of(value);
            if (!inputs)
                throw CLI::ValidationError(place + ": '" + std::string(key.str()) +
                                           "' takes a string, a number, true or false, or a list of them");
            from_file[long_name(*opt)] = {std::move(*inputs), place};
        }
    }
    for (CLI::Option* opt : cmd.get_options()) {
        if (!is_setting(*opt, config) || opt->count() > 0) continue;  // the command line wins
        const std::string variable = environment_name(prefix, long_name(*opt));
        if (const char* env = std::getenv(variable.c_str()); env && *env) {
            std::vector<std::string> inputs;
            if (opt->get_items_expected_max() > 1) {
                std::string item;
                std::istringstream list(env);
                while (std::getline(list, item, ','))
                    if (!item.empty()) inputs.push_back(item);
            } else {
                inputs.emplace_back(env);
            }
            set_option(*opt, inputs, variable);
        } else if (auto it = from_file.find(long_name(*opt)); it != from_file.end()) {
            set_option(*opt, it->second.first, it->second.second);
        }
    }
}

}  // namespace outpost::app
