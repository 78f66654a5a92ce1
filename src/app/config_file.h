// Outpost — the settings of a subcommand from the environment and a TOML file (SPEC
// D5; `outpost serve --config FILE`): every long option is a key of the file
// (`port = 8080`, `db = "/var/lib/outpost/outpost.db"`, `allow-origin = ["…"]`,
// `no-client-limits = true`) and an environment variable (OUTPOST_PORT, OUTPOST_DB,
// OUTPOST_ALLOW_ORIGIN with commas between values …). A flag on the command line
// wins over the environment, and the environment over the file, as operators know
// it from Gitea or Grafana.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace outpost::app {

// The environment variable of a long option: PREFIX + its name in capitals, '-' as '_'
// ("--io-threads" -> "OUTPOST_IO_THREADS").
std::string environment_name(const std::string& prefix, const std::string& long_name);

// Sets every option of `cmd` that the command line did not set from its environment
// variable, else from the TOML file at `path` ("" for none). The option `config`
// itself, --help and unknown keys are not settings. Throws CLI::ValidationError that
// says "FILE:LINE:COLUMN: what is wrong" (or "VARIABLE: …") for a file that cannot be
// read or parsed, an unknown key, a value of the wrong kind, or a value the option's
// own check refuses. Keys may be written with '_' for '-'.
void apply_environment_and_file(CLI::App& cmd, const std::string& prefix, const std::string& path,
                                const CLI::Option* config);

}  // namespace outpost::app
