#include "CTLSShim.h"
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <string.h>
#include <stdio.h>

static void error_text(const char *what, char *err, int errlen) {
    unsigned long e = ERR_get_error();
    char detail[256] = "unknown error";
    if (e) ERR_error_string_n(e, detail, sizeof detail);
    snprintf(err, errlen, "%s: %s", what, detail);
    ERR_clear_error();
}

void *tabula_tls_server_context(const char *cert, const char *key, char *err, int errlen) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) { error_text("cannot make a TLS context", err, errlen); return NULL; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    /* RELEASE_BUFFERS: an idle or stalled session keeps no 16 KiB record buffers. */
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) { error_text("cannot use the --tls-cert file", err, errlen); SSL_CTX_free(ctx); return NULL; }
    if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) { error_text("cannot use the --tls-key file", err, errlen); SSL_CTX_free(ctx); return NULL; }
    if (SSL_CTX_check_private_key(ctx) != 1) { error_text("the --tls-key does not match the --tls-cert", err, errlen); SSL_CTX_free(ctx); return NULL; }
    return ctx;
}

void *tabula_tls_client_context(const char *cafile, char *err, int errlen) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) { error_text("cannot make a TLS context", err, errlen); return NULL; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    int ok = cafile ? SSL_CTX_load_verify_locations(ctx, cafile, NULL) : SSL_CTX_set_default_verify_paths(ctx);
    if (ok != 1) { error_text("cannot load the CA certificates", err, errlen); SSL_CTX_free(ctx); return NULL; }
    return ctx;
}

void tabula_tls_context_free(void *ctx) { SSL_CTX_free((SSL_CTX *)ctx); }

void *tabula_tls_server_session(void *ctx, int fd) {
    SSL *ssl = SSL_new((SSL_CTX *)ctx);
    if (!ssl) return NULL;
    SSL_set_fd(ssl, fd);
    SSL_set_accept_state(ssl);
    return ssl;
}

void *tabula_tls_client_session(void *ctx, int fd, const char *hostname) {
    SSL *ssl = SSL_new((SSL_CTX *)ctx);
    if (!ssl) return NULL;
    SSL_set_fd(ssl, fd);
    SSL_set_tlsext_host_name(ssl, hostname);
    SSL_set1_host(ssl, hostname);
    SSL_set_connect_state(ssl);
    return ssl;
}

void tabula_tls_session_free(void *p) {
    SSL *ssl = (SSL *)p;
    if (!ssl) return;
    if (SSL_is_init_finished(ssl)) SSL_shutdown(ssl);
    SSL_free(ssl);
    ERR_clear_error();
}

static int outcome(SSL *ssl, int r) {
    switch (SSL_get_error(ssl, r)) {
    case SSL_ERROR_WANT_READ: return TABULA_TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE: return TABULA_TLS_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN: return 0;
    default: return TABULA_TLS_FAILED;
    }
}

void tabula_tls_release_buffers(void *p) { SSL_free_buffers((SSL *)p); }

int tabula_tls_established(void *p) { return SSL_is_init_finished((SSL *)p) ? 1 : 0; }

int tabula_tls_handshake(void *p) {
    SSL *ssl = (SSL *)p;
    int r = SSL_do_handshake(ssl);
    return r == 1 ? 1 : outcome(ssl, r);
}

int tabula_tls_read(void *p, void *buf, int len) {
    SSL *ssl = (SSL *)p;
    int r = SSL_read(ssl, buf, len);
    return r > 0 ? r : outcome(ssl, r);
}

int tabula_tls_write(void *p, const void *buf, int len) {
    SSL *ssl = (SSL *)p;
    int r = SSL_write(ssl, buf, len);
    if (r > 0) return r;
    int o = outcome(ssl, r);
    return o == 0 ? TABULA_TLS_FAILED : o;
}

int tabula_tls_pending(void *p) { return SSL_pending((SSL *)p); }

void tabula_tls_last_error(char *buf, int len) {
    unsigned long e = ERR_get_error();
    if (e) ERR_error_string_n(e, buf, len); else snprintf(buf, len, "connection closed during the TLS handshake");
    ERR_clear_error();
}

static SSL_CTX *fuzz_context(void) {
    static SSL_CTX *ctx = NULL;
    if (ctx) return ctx;
    EVP_PKEY *key = EVP_RSA_gen(2048);
    X509 *cert = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
    X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509_sign(cert, key, EVP_sha256());
    ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_use_certificate(ctx, cert);
    SSL_CTX_use_PrivateKey(ctx, key);
    return ctx;
}

int tabula_tls_fuzz_input(const unsigned char *data, int len) {
    SSL *ssl = SSL_new(fuzz_context());
    BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem());
    SSL_set_bio(ssl, in, out);
    SSL_set_accept_state(ssl);
    BIO_write(in, data, len);
    unsigned char buf[16384];
    int total = 0;
    for (int i = 0; i < 64; i++) {
        int r = SSL_read(ssl, buf, sizeof buf);
        if (r > 0) { total += r; continue; }
        break;
    }
    SSL_free(ssl);
    ERR_clear_error();
    return total;
}
