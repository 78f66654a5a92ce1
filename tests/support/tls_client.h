// Outpost tests — a TLS client for the HTTPS tests (issue 27 item 6): a connection from
// a chosen loopback address, TLS through OpenSSL, and a plain socket for the test to
// talk through, so that the HTTP and WebSocket helpers of serve_process.h work over
// TLS unchanged. Certificates are made with Debian's `openssl` command.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "serve_process.h"

namespace outpost::test {

// A self-signed certificate for 127.0.0.1 and localhost whose subject is CN=`name`:
// {certificate file, key file} in `dir` (EC P-256: made in a few milliseconds).
inline std::pair<std::string, std::string> make_certificate(const fs::path& dir, const std::string& name) {
    const std::string cert = (dir / (name + ".crt")).string(), key = (dir / (name + ".key")).string();
    const std::string command = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2"
                                " -subj /CN=" + name + " -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout '" +
                                key + "' -out '" + cert + "' 2>/dev/null";
    if (std::system(command.c_str()) != 0) return {};
    return {cert, key};
}

// A TCP connection to 127.0.0.1:port from `source` (any address of 127.0.0.0/8 is
// this machine's): a test shows two clients to the server this way. -1 on failure.
inline int connect_from(const std::string& source, int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    inet_pton(AF_INET, source.c_str(), &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(uint16_t(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
        connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// A TLS connection from `source` to 127.0.0.1:port that checks the server's
// certificate against `ca_file`, and a plain socket (fd()) whose bytes a thread
// carries over it both ways. ok() says whether the handshake succeeded.
class TlsPipe {
public:
    TlsPipe(const std::string& source, int port, const std::string& ca_file) {
        tcp_ = connect_from(source, port);
        if (tcp_ < 0) return;
        ctx_ = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
        if (SSL_CTX_load_verify_locations(ctx_, ca_file.c_str(), nullptr) != 1) return;
        ssl_ = SSL_new(ctx_);
        SSL_set_fd(ssl_, tcp_);
        SSL_set_tlsext_host_name(ssl_, "localhost");
        timeval t{10, 0};
        setsockopt(tcp_, SOL_SOCKET, SO_RCVTIMEO, &t, sizeof t);
        if (SSL_connect(ssl_) != 1) {
            ERR_print_errors_fp(stderr);
            return;
        }
        if (X509* cert = SSL_get1_peer_certificate(ssl_)) {
            char cn[256] = {};
            X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
            subject_cn_ = cn;
            X509_free(cert);
        }
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return;
        outer_ = pair[0];
        inner_ = pair[1];
        fcntl(tcp_, F_SETFL, fcntl(tcp_, F_GETFL) | O_NONBLOCK);
        ok_ = true;
        pump_ = std::thread([this] { pump(); });
    }
    TlsPipe(const TlsPipe&) = delete;
    TlsPipe& operator=(const TlsPipe&) = delete;
    ~TlsPipe() {
        stop_ = true;
        if (pump_.joinable()) pump_.join();
        if (ssl_) SSL_free(ssl_);
        if (ctx_) SSL_CTX_free(ctx_);
        for (int fd : {tcp_, outer_, inner_})
            if (fd >= 0) close(fd);
    }
    bool ok() const { return ok_; }
    int fd() const { return outer_; }
    const std::string& subject_cn() const { return subject_cn_; }

private:
    void pump() {
        char buffer[16384];
        while (!stop_) {
            pollfd p[2] = {{tcp_, POLLIN, 0}, {inner_, POLLIN, 0}};
            if (poll(p, 2, SSL_pending(ssl_) ? 0 : 50) < 0) return;
            if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) || SSL_pending(ssl_)) {
                for (;;) {
                    const int n = SSL_read(ssl_, buffer, sizeof buffer);
                    if (n > 0) {
                        if (!send_all(inner_, std::string(buffer, size_t(n)))) return;
                        continue;
                    }
                    const int e = SSL_get_error(ssl_, n);
                    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) break;
                    shutdown(inner_, SHUT_WR);  // the server closed: the test reads the end
                    return;
                }
            }
            if (p[1].revents & (POLLIN | POLLHUP)) {
                const ssize_t n = recv(inner_, buffer, sizeof buffer, 0);
                if (n <= 0) {
                    SSL_shutdown(ssl_);
                    return;
                }
                if (!write_all(buffer, size_t(n))) return;
            }
        }
    }
    bool write_all(const char* data, size_t size) {
        while (size > 0 && !stop_) {
            const int n = SSL_write(ssl_, data, int(size));
            if (n > 0) {
                data += n;
                size -= size_t(n);
                continue;
            }
            const int e = SSL_get_error(ssl_, n);
            if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return false;
            pollfd p{tcp_, short(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
            poll(&p, 1, 50);
        }
        return size == 0;
    }

    int tcp_ = -1, outer_ = -1, inner_ = -1;
    SSL_CTX* ctx_ = nullptr;
    SSL* ssl_ = nullptr;
    bool ok_ = false;
    std::string subject_cn_;
    std::atomic<bool> stop_{false};
    std::thread pump_;
};

}  // namespace outpost::test
