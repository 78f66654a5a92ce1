// Outpost — the server's own TLS (tls.h): the files read and checked with OpenSSL, so
// that an operator's mistake is told in words before the server starts (or, on
// SIGHUP, before the good certificate is dropped).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/tls.h"

#include "server/edge/net.h"  // first: see net.h

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/ssl/context.hpp>
#include <cerrno>
#include <cstring>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace outpost::server {

namespace {

constexpr size_t MaxPemBytes = 1 << 20;  // a chain of a few certificates is a few KiB

// The whole file, or why not ("--tls-key /etc/x.pem: cannot read the key: Permission denied").
Result<std::string> read_pem(const std::string& option, const std::string& path, const char* what) {
    const std::string where = option + " " + path + ": ";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return make_error(where + "cannot read the " + what + ": " + std::strerror(errno));
    std::string text;
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            return make_error(where + "cannot read the " + what + ": " + std::strerror(e));
        }
        if (n == 0) break;
        text.append(buffer, size_t(n));
        if (text.size() > MaxPemBytes) {
            ::close(fd);
            return make_error(where + "more than 1 MiB: not a PEM " + what);
        }
    }
    ::close(fd);
    return text;
}

// OpenSSL's last error in words, and its queue emptied.
std::string openssl_reason() {
    const unsigned long code = ERR_peek_last_error();
    ERR_clear_error();
    if (code == 0) return "";
    const char* reason = ERR_reason_error_string(code);
    return reason ? std::string(" (") + reason + ")" : "";
}

struct BioDeleter {
    void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Deleter {
    void operator()(X509* x) const { X509_free(x); }
};
struct KeyDeleter {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using BioPtr = std::unique_ptr<BIO, BioDeleter>;

BioPtr memory_bio(const std::string& text) { return BioPtr(BIO_new_mem_buf(text.data(), int(text.size()))); }

// A key with a passphrase: refused, never asked for on a terminal.
int no_passphrase(char*, int, int, void*) { return -1; }

std::string bio_text(BIO* b) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(b, &data);
    return n > 0 ? std::string(data, size_t(n)) : std::string();
}

std::string describe_certificate(X509* cert) {
    BioPtr out(BIO_new(BIO_s_mem()));
    X509_NAME_print_ex(out.get(), X509_get_subject_name(cert), 0, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB);
    BIO_puts(out.get(), ", valid until ");
    ASN1_TIME_print(out.get(), X509_get0_notAfter(cert));
    if (X509_cmp_current_time(X509_get0_notAfter(cert)) < 0) BIO_puts(out.get(), " (EXPIRED: browsers will refuse it)");
    return bio_text(out.get());
}

struct Loaded {
    std::shared_ptr<asio::ssl::context> context;
    std::string description;
};

Result<Loaded> load_files(const std::string& cert_path, const std::string& key_path) {
    auto cert_pem = read_pem("--tls-cert", cert_path, "certificate");
    if (!cert_pem) return cert_pem.error();
    auto key_pem = read_pem("--tls-key", key_path, "key");
    if (!key_pem) return key_pem.error();

    ERR_clear_error();
    auto cert_bio = memory_bio(*cert_pem);
    std::unique_ptr<X509, X509Deleter> cert(PEM_read_bio_X509(cert_bio.get(), nullptr, no_passphrase, nullptr));
    if (!cert)
        return make_error("--tls-cert " + cert_path +
                          ": no certificate in it (expected PEM: a -----BEGIN CERTIFICATE----- block)" + openssl_reason());
    auto key_bio = memory_bio(*key_pem);
    std::unique_ptr<EVP_PKEY, KeyDeleter> key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, no_passphrase, nullptr));
    if (!key) {
        ERR_clear_error();
        return make_error("--tls-key " + key_path +
                          ": no private key in it (expected PEM: a -----BEGIN PRIVATE KEY----- block, without a "
                          "passphrase)");
    }
    if (X509_check_private_key(cert.get(), key.get()) != 1) {
        ERR_clear_error();
        return make_error("--tls-key " + key_path + ": not the key of the certificate in --tls-cert " + cert_path);
    }

    auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::single_dh_use);
    SSL_CTX* native = context->native_handle();
    SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
    // A TLS 1.2 client asking for handshake after handshake costs the server CPU for
    // nothing a browser needs: refused.
    SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_default_passwd_cb(native, no_passphrase);
    beast::error_code ec;
    // The chain: the certificate and the intermediates after it in the same file.
    context->use_certificate_chain(asio::buffer(*cert_pem), ec);
    if (ec) return make_error("--tls-cert " + cert_path + ": " + ec.message());
    if (SSL_CTX_use_PrivateKey(native, key.get()) != 1 || SSL_CTX_check_private_key(native) != 1)
        return make_error("--tls-key " + key_path + ": OpenSSL refused it" + openssl_reason());
    return Loaded{std::move(context), describe_certificate(cert.get())};
}

}  // namespace

Result<std::shared_ptr<TlsCertificate>> TlsCertificate::load(std::string cert_path, std::string key_path) {
    auto tls = std::make_shared<TlsCertificate>(std::move(cert_path), std::move(key_path));
    auto loaded = tls->reload();
    if (!loaded) return loaded.error();
    return tls;
}

std::shared_ptr<asio::ssl::context> TlsCertificate::current() const {
    std::lock_guard lock(mutex_);
    return context_;
}

Result<std::string> TlsCertificate::reload() {
    auto loaded = load_files(cert_path_, key_path_);
    if (!loaded) return loaded.error();
    std::lock_guard lock(mutex_);
    context_ = std::move(loaded->context);
    description_ = std::move(loaded->description);
    return description_;
}

std::string TlsCertificate::describe() const {
    std::lock_guard lock(mutex_);
    return description_;
}

}  // namespace outpost::server
