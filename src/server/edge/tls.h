// Outpost — the server's own TLS (issue 27, "TLS and proxies"): the certificate and
// key of --tls-cert and --tls-key in an OpenSSL context, read again on SIGHUP.
// Connections take the context current when they are accepted and keep it: after a
// reload the new ones get the new certificate, the open ones go on with the old.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "chess/result.h"

namespace boost::asio::ssl {
class context;
}

namespace outpost::server {

class TlsCertificate {
public:
    // Reads both files; refused in one line that says which file and why: it cannot be
    // read, it holds no PEM certificate or key, or the key is not the certificate's.
    static Result<std::shared_ptr<TlsCertificate>> load(std::string cert_path, std::string key_path);

    std::shared_ptr<boost::asio::ssl::context> current() const;

    // Reads the files again. On success new connections get the new certificate and
    // the answer says what it is; on failure the old one stays and the error says why.
    Result<std::string> reload();

    // "CN=club.example, valid until Nov 28 07:00:00 2027 GMT" of the current one.
    std::string describe() const;

    TlsCertificate(std::string cert_path, std::string key_path) : cert_path_(std::move(cert_path)), key_path_(std::move(key_path)) {}

private:
    std::string cert_path_, key_path_;
    mutable std::mutex mutex_;
    std::shared_ptr<boost::asio::ssl::context> context_;
    std::string description_;
};

}  // namespace outpost::server
