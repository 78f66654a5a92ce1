// Outpost — `outpost user`: the administrator's commands for accounts (SPEC P21), on
// the database that `outpost serve` uses. No e-mail is needed: passwords are set and
// reset here, and an account can be disabled.
//
//   outpost user [--db FILE] add NAME [--admin]     password from standard input
//   outpost user [--db FILE] password NAME           reset; ends every session
//   outpost user [--db FILE] disable NAME | enable NAME
//   outpost user [--db FILE] logout NAME             ends every session of NAME
//   outpost user [--db FILE] list
//   (--database postgresql://… instead of --db: the accounts of a PostgreSQL server)
//
// A password is read from standard input: one line, or asked twice without echo when
// standard input is a terminal. It never appears on the command line (where `ps`
// would show it).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "server/stores/postgres/pg_stores.h"
#include "server/accounts/accounts.h"

namespace outpost::app {
namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// One line from standard input, without its line end; on a terminal, without echo.
std::optional<std::string> read_secret(const std::string& prompt) {
    const bool tty = ::isatty(STDIN_FILENO) != 0;
    termios saved{};
    if (tty) {
        std::cerr << prompt << std::flush;
        ::tcgetattr(STDIN_FILENO, &saved);
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    std::string line;
    const bool got = bool(std::getline(std::cin, line));
    if (tty) {
        ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        std::cerr << "\n";
    }
    if (!got) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

std::optional<std::string> read_new_password() {
    auto first = read_secret("New password: ");
    if (!first) return std::nullopt;
    if (::isatty(STDIN_FILENO)) {
        auto again = read_secret("The same again: ");
        if (!again || *again != *first) {
            std::cerr << "outpost user: the two passwords differ\n";
            return std::nullopt;
        }
    }
    return first;
}

struct UserArgs {
    std::string db = "outpost.db";
    std::string database;  // a PostgreSQL URL instead of `db` (issue 26)
    std::string name;
    bool admin = false;
};

int fail(const std::string& what) {
    std::cerr << "outpost user: " << what << "\n";
    return 1;
}

}  // namespace

void add_user_command(CLI::App& parent, std::function<int()>& run) {
    auto args = std::make_shared<UserArgs>();
    CLI::App* cmd = parent.add_subcommand("user", "Manage player accounts (administrator)");
    cmd->add_option("--db", args->db, "SQLite database file of `outpost serve`")->capture_default_str();
    cmd->add_option("--database", args->database, "PostgreSQL database of `outpost serve --database` (instead of --db)")
        ->check(CLI::Validator(
            [](std::string& v) { return server::postgres::is_url(v) ? std::string() : std::string("a postgresql:// URL"); },
            "URL"));
    cmd->require_subcommand(1);

    auto with_store = [args](const std::function<int(server::AccountStore&)>& body) {
        return [args, body]() {
            auto store = args->database.empty() ? server::AccountStore::open(args->db)
                                                : server::postgres::open_accounts(args->database);
            if (!store) return fail(store.error().message);
            return body(**store);
        };
    };

    CLI::App* add = cmd->add_subcommand("add", "Create an account; the password is read from standard input");
    add->add_option("NAME", args->name, "username")->required();
    add->add_flag("--admin", args->admin, "an administrator account");
    add->callback([&run, args, with_store] {
        run = with_store([args](server::AccountStore& store) {
            if (auto ok = server::check_username(args->name); !ok) return fail(ok.error().message);
            auto password = read_new_password();
            if (!password) return fail("no password given");
            auto made = store.create(args->name, *password, args->admin, now_ms());
            if (!made) return fail(made.error().message);
            std::cout << "created " << made->name << (made->admin ? " (administrator)" : "") << "\n";
            return 0;
        });
    });

    CLI::App* password = cmd->add_subcommand("password", "Set a new password (read from standard input); ends every session");
    password->add_option("NAME", args->name, "username")->required();
    password->callback([&run, args, with_store] {
        run = with_store([args](server::AccountStore& store) {
            auto pw = read_new_password();
            if (!pw) return fail("no password given");
            if (auto r = store.reset_password(args->name, *pw); !r) return fail(r.error().message);
            std::cout << "password of " << args->name << " changed; every session ended\n";
            return 0;
        });
    });

    for (bool disable : {true, false}) {
        CLI::App* sub = cmd->add_subcommand(disable ? "disable" : "enable",
                                            disable ? "Refuse sign-in and end every session" : "Allow sign-in again");
        sub->add_option("NAME", args->name, "username")->required();
        sub->callback([&run, args, with_store, disable] {
            run = with_store([args, disable](server::AccountStore& store) {
                if (auto r = store.set_disabled(args->name, disable); !r) return fail(r.error().message);
                std::cout << args->name << (disable ? " disabled\n" : " enabled\n");
                return 0;
            });
        });
    }

    CLI::App* logout = cmd->add_subcommand("logout", "End every session of an account");
    logout->add_option("NAME", args->name, "username")->required();
    logout->callback([&run, args, with_store] {
        run = with_store([args](server::AccountStore& store) {
            auto a = store.find(args->name);
            if (!a) return fail(a.error().message);
            if (!*a) return fail("no account is named '" + args->name + "'");
            auto n = store.end_all_sessions((*a)->id);
            if (!n) return fail(n.error().message);
            std::cout << *n << " session" << (*n == 1 ? "" : "s") << " of " << (*a)->name << " ended\n";
            return 0;
        });
    });

    CLI::App* list = cmd->add_subcommand("list", "List the accounts: name, role, state");
    list->callback([&run, with_store] {
        run = with_store([](server::AccountStore& store) {
            auto all = store.list();
            if (!all) return fail(all.error().message);
            for (const server::Account& a : *all)
                std::cout << a.name << "\t" << (a.admin ? "admin" : "player") << "\t"
                          << (a.disabled ? "disabled" : "active") << "\n";
            return 0;
        });
    });
}

}  // namespace outpost::app
