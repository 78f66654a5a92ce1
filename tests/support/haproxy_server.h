// Outpost tests — Debian's HAProxy in front of `outpost serve` nodes (issue 26, item 4),
// run with the shipped deploy/haproxy.cfg: everything from its `defaults` on, behind a
// `global` of the test's own (no chroot, no user switch, its log lines on standard
// output into the test's folder, a stats socket there), its `bind` on 127.0.0.1 and a
// free port, and each backend's server lines written from the file's first one, one a
// node. HAProxy runs in the foreground (-db) and is stopped when the object goes, even
// when the test fails; if the test process dies first, the kernel stops it
// (PR_SET_PDEATHSIG).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace outpost::test {

// A free loopback port (free when asked: the caller binds it a moment later).
inline int free_loopback_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

// The text of deploy/haproxy.cfg made into a configuration for nodes on 127.0.0.1 at
// `node_ports` (named node1, node2 …) and a front on 127.0.0.1:`front_port`; `global` is
// put before its `defaults`. "" with the reason in `why` when the file no longer has the
// shape this relies on (a `defaults` section, `bind :8080`, a server line in each backend
// that is not a stick table's).
inline std::string haproxy_config(const std::string& deployed, const std::string& global, int front_port,
                                  const std::vector<int>& node_ports, std::string& why) {
    const size_t defaults = deployed.find("\ndefaults");
    if (defaults == std::string::npos) {
        why = "deploy/haproxy.cfg has no `defaults` section";
        return "";
    }
    std::istringstream in(deployed.substr(defaults + 1));
    std::ostringstream out;
    out << global << "\n";
    std::string line;
    bool in_backend = false, servers_written = false, bound = false;
    int backends = 0, backends_with_servers = 0, tables = 0;  // a table's backend has no servers
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#') {
            in_backend = line.rfind("backend ", 0) == 0;
            backends += in_backend;
            servers_written = false;
        }
        const size_t text = line.find_first_not_of(" \t");
        const std::string trimmed = text == std::string::npos ? "" : line.substr(text);
        if (in_backend && trimmed.rfind("stick-table ", 0) == 0) ++tables;
        if (trimmed == "bind :8080") {
            out << line.substr(0, text) << "bind 127.0.0.1:" << front_port << "\n";
            bound = true;
            continue;
        }
        if (!in_backend || trimmed.rfind("server ", 0) != 0) {
            out << line << "\n";
            continue;
        }
        if (servers_written) continue;  // the file's other nodes
        // "server NAME ADDRESS REST…": REST (with NAME in it, as in `track backend/NAME`)
        // is kept for every node.
        std::istringstream words(trimmed);
        std::string server, name, address;
        words >> server >> name >> address;
        std::string rest;
        std::getline(words, rest);
        for (size_t i = 0; i < node_ports.size(); ++i) {
            const std::string node = "node" + std::to_string(i + 1);
            std::string r = rest;
            for (size_t at = r.find(name); at != std::string::npos; at = r.find(name, at + node.size()))
                r.replace(at, name.size(), node);
            out << line.substr(0, text) << "server " << node << " 127.0.0.1:" << node_ports[i] << r << "\n";
        }
        servers_written = true;
        ++backends_with_servers;
    }
    if (!bound) why = "deploy/haproxy.cfg no longer has `bind :8080`";
    else if (backends == 0 || backends_with_servers + tables != backends) why = "a backend of deploy/haproxy.cfg has no server line";
    return why.empty() ? out.str() : "";
}

// HAProxy with deploy/haproxy.cfg in front of nodes on 127.0.0.1 at `node_ports`, its
// files in a temporary folder of its own (short: a Unix socket's path has at most 107
// bytes), removed at the end. `port` is the front's; `failure` says why it did not start.
class HaproxyServer {
public:
    pid_t pid = -1;
    int port = 0;
    std::filesystem::path dir;
    std::string failure;

    explicit HaproxyServer(const std::vector<int>& node_ports) {
        std::string name = (std::filesystem::temp_directory_path() / "outpost-haproxy-XXXXXX").string();
        if (!mkdtemp(name.data())) {
            failure = "cannot make a temporary folder for HAProxy";
            return;
        }
        dir = name;
        std::ifstream deployed_file(std::filesystem::path(OUTPOST_TEST_DATA) / ".." / ".." / "deploy" / "haproxy.cfg");
        const std::string deployed((std::istreambuf_iterator<char>(deployed_file)), std::istreambuf_iterator<char>());
        port = free_loopback_port();
        const std::string global = "global\n    maxconn 1000\n    log stdout format raw local0 info\n    stats socket " +
                                   stats_socket() + " mode 600 level admin\n";
        const std::string config = haproxy_config(deployed, global, port, node_ports, failure);
        if (config.empty()) return;
        std::ofstream(dir / "haproxy.cfg") << config;
        const std::string conf = (dir / "haproxy.cfg").string(), log = (dir / "haproxy.log").string();
        const pid_t parent = ::getpid();
        pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() != parent) _exit(125);
            if (!std::freopen(log.c_str(), "w", stdout) || !std::freopen(log.c_str(), "a", stderr)) _exit(126);
            execl("/usr/sbin/haproxy", "haproxy", "-db", "-f", conf.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        for (int i = 0; i < 200; ++i) {
            if (std::filesystem::exists(stats_socket()) && connectable()) return;
            if (waitpid(pid, nullptr, WNOHANG) == pid) {
                pid = -1;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        failure = "haproxy did not start: " + log_text();
    }
    HaproxyServer(const HaproxyServer&) = delete;
    HaproxyServer& operator=(const HaproxyServer&) = delete;
    ~HaproxyServer() {
        if (pid > 0) {
            ::kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
        std::error_code ec;
        if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }

    std::string stats_socket() const { return (dir / "admin.sock").string(); }
    // Its log: one line a request (httplog: "… outpost outpost_games/node2 …").
    std::string log_text() const {
        std::ifstream in(dir / "haproxy.log");
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }

    // `show stat` on the stats socket: "BACKEND/SERVER" -> its status (UP, DOWN, …).
    std::map<std::string, std::string> server_states() const {
        std::map<std::string, std::string> states;
        const std::string csv = command("show stat\n");
        std::istringstream lines(csv);
        std::string line;
        int status_column = -1;
        while (std::getline(lines, line)) {
            std::vector<std::string> cells;
            std::istringstream cols(line.rfind("# ", 0) == 0 ? line.substr(2) : line);
            for (std::string cell; std::getline(cols, cell, ',');) cells.push_back(cell);
            if (line.rfind("# ", 0) == 0) {
                for (size_t i = 0; i < cells.size(); ++i)
                    if (cells[i] == "status") status_column = int(i);
                continue;
            }
            if (status_column < 0 || cells.size() <= size_t(status_column)) continue;
            if (cells[1] == "FRONTEND" || cells[1] == "BACKEND") continue;
            states[cells[0] + "/" + cells[1]] = cells[size_t(status_column)];
        }
        return states;
    }

    // A command on the stats socket, its whole answer.
    std::string command(const std::string& text) const {
        const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        const std::string path = stats_socket();
        if (path.size() >= sizeof a.sun_path) return "";
        std::copy(path.begin(), path.end(), a.sun_path);
        std::string answer;
        if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size())) {
            timeval t{5, 0};
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, sizeof t);
            char buf[4096];
            for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) answer.append(buf, size_t(n));
        }
        close(fd);
        return answer;
    }

private:
    bool connectable() const {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        close(fd);
        return ok;
    }
};

}  // namespace outpost::test
