#ifndef TABULA_CTLSSHIM_H
#define TABULA_CTLSSHIM_H

/// TLS over OpenSSL 3 for tabulad and tabula: the few calls they need, with OpenSSL's
/// macros and error queue kept on this side. Every handle is opaque.

/// Results of read, write and connect beyond byte counts.
enum {
    TABULA_TLS_WANT_READ = -1,
    TABULA_TLS_WANT_WRITE = -2,
    TABULA_TLS_FAILED = -3,
};

/// A server context for TLS 1.2 and 1.3 with the certificate chain and key in PEM files;
/// NULL with a message in err when they cannot be used.
void *tabula_tls_server_context(const char *cert, const char *key, char *err, int errlen);
/// A client context: verifies the server against cafile (PEM), or the system's CAs when
/// cafile is NULL; NULL with a message in err on failure.
void *tabula_tls_client_context(const char *cafile, char *err, int errlen);
void tabula_tls_context_free(void *ctx);

/// A session on a connected non-blocking socket: accepting (server) or connecting to
/// hostname (client, which also names the certificate to verify).
void *tabula_tls_server_session(void *ctx, int fd);
void *tabula_tls_client_session(void *ctx, int fd, const char *hostname);
/// Sends close_notify if it can without blocking, and frees the session.
void tabula_tls_session_free(void *ssl);

/// The handshake (client): 1 when done, or a TABULA_TLS_ result.
int tabula_tls_handshake(void *ssl);
/* Gives back the session's record buffers when they hold nothing (a session waiting). */
void tabula_tls_release_buffers(void *ssl);
/* Whether the session's handshake has finished. */
int tabula_tls_established(void *ssl);
/// Bytes read (> 0), 0 when the peer closed, or a TABULA_TLS_ result.
int tabula_tls_read(void *ssl, void *buf, int len);
/// Bytes written (> 0) or a TABULA_TLS_ result.
int tabula_tls_write(void *ssl, const void *buf, int len);
/// Decrypted bytes waiting inside the session (not visible to poll).
int tabula_tls_pending(void *ssl);
/// For the fuzzer: feeds `data` to a fresh server session (memory BIOs, a certificate made
/// once in memory) as if a client had sent it, driving the handshake and reads until they
/// stop making progress. Returns the number of application bytes read.
int tabula_tls_fuzz_input(const unsigned char *data, int len);
/// The last error, as text, for a failed session.
void tabula_tls_last_error(char *buf, int len);

#endif
