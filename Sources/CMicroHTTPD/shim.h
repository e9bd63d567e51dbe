// Thin, non-variadic wrappers over libmicrohttpd's variadic API so that Swift can
// call it. Nothing here knows about chat; MicroHTTPD (Swift) is the only importer.
#ifndef SWITCHBOARD_CMICROHTTPD_SHIM_H
#define SWITCHBOARD_CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/// glibc's own declaration is behind _GNU_SOURCE, which a module's header
/// cannot turn on for the system headers it shares.
extern int pthread_setname_np(pthread_t thread, const char *name);

/// Names the calling thread as `top -H`, `perf` and /proc show it (at most
/// 15 bytes; a longer name is refused). 0 when done.
static inline int sb_name_this_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>

/// MHD_start_daemon with every option passed through one MHD_OPTION_ARRAY
/// (terminated by an MHD_OPTION_END item).
static inline struct MHD_Daemon *
sb_start_daemon(unsigned int flags,
                uint16_t port,
                MHD_AcceptPolicyCallback accept_policy,
                void *accept_policy_cls,
                MHD_AccessHandlerCallback handler,
                void *handler_cls,
                struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// MHD_SIZE_UNKNOWN (a cast macro Swift cannot import).
static inline uint64_t
sb_size_unknown(void)
{
    return MHD_SIZE_UNKNOWN;
}

/// The port the daemon is bound to (useful after binding port 0), or 0.
static inline uint16_t
sb_daemon_bind_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// A descriptor of its own for the daemon's listening socket (`dup`), for
/// another daemon to accept on the same socket; -1 when it has none.
static inline int
sb_daemon_listen_socket(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return (info == NULL || info->listen_fd < 0) ? -1 : fcntl(info->listen_fd, F_DUPFD_CLOEXEC, 0);
}

/// The client's socket address of a connection, or NULL.
static inline const struct sockaddr *
sb_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// An eventfd for waking a thread asleep in epoll; -1 on failure.
static inline int
sb_eventfd_create(void)
{
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

/// Wakes whoever waits on `eventfd` (writes to it).
static inline void
sb_eventfd_signal(int eventfd)
{
    uint64_t one = 1;
    (void)!write(eventfd, &one, sizeof one);
}

/// An epoll set for hang-ups (see HangupWatch.swift) with `wakeup`, an
/// eventfd, in it under token 0. Returns the set, or -1.
static inline int
sb_hangup_set_create(int *wakeup)
{
    int set = epoll_create1(EPOLL_CLOEXEC);
    if (set < 0) return -1;
    *wakeup = sb_eventfd_create();
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = 0 };
    if (*wakeup < 0 || epoll_ctl(set, EPOLL_CTL_ADD, *wakeup, &event) != 0) {
        if (*wakeup >= 0) close(*wakeup);
        close(set);
        return -1;
    }
    return set;
}

/// Watches `fd` once for the peer's FIN, a reset or an error, under `token`. 0 on success.
/// A socket watched before stays in the set (disarmed once it fired, or
/// holding a token nobody looks for): it is re-armed with the new token, one
/// system call, and the kernel reports a hang-up that came before. A socket
/// new to the set is added. The kernel takes a socket out of the set itself
/// when it is closed.
static inline int
sb_hangup_watch(int set, int fd, uint64_t token)
{
    struct epoll_event event = { .events = EPOLLRDHUP | EPOLLONESHOT, .data.u64 = token };
    if (epoll_ctl(set, EPOLL_CTL_MOD, fd, &event) == 0) return 0;
    if (errno != ENOENT) return -1;
    return epoll_ctl(set, EPOLL_CTL_ADD, fd, &event);
}

/// Sleeps until something fires; writes up to `capacity` tokens. Returns
/// how many, 0 after EINTR, -1 when the set is gone.
static inline int
sb_hangup_wait(int set, uint64_t *tokens, int capacity)
{
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(set, events, capacity, -1);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int index = 0; index < count; index++) tokens[index] = events[index].data.u64;
    return count;
}

/// What the URI callback leaves as the access handler's first `*con_cls`
/// (addresses 1 to 3: never an object's): the query was cut off (too many
/// parameters), and the target holds a '%' escape or a byte beyond ASCII,
/// so that its decoded path and query are checked for UTF-8 (a request
/// without either, nearly all, is not looked at again).
enum { SB_TARGET_CUT_QUERY = 1, SB_TARGET_ESCAPED = 2, SB_TARGET_NUL = 4 };

/// The marks `pointer` stands for, or 0 when it is an object (or NULL).
static inline unsigned sb_target_marks(const void *pointer)
{
    uintptr_t value = (uintptr_t)pointer;
    return value <= (SB_TARGET_CUT_QUERY | SB_TARGET_ESCAPED | SB_TARGET_NUL) ? (unsigned)value : 0;
}

/// Whether `length` bytes of `text` hold a '%' or a byte beyond ASCII,
/// eight at a time (a byte loop with both tests was 17 instructions a
/// byte, 1,500 a long poll's URI; this is under 2): a word has a high bit
/// set, or a byte equal to '%' (the classic "has a zero byte" test, exact
/// as a yes or no, on the word XOR '%' in every byte).
static inline int
sb_escaped_or_beyond_ascii(const char *text, size_t length)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull, percent = 0x2525252525252525ull;
    size_t at = 0;
    for (; at + 8 <= length; at += 8) {
        uint64_t word;
        memcpy(&word, text + at, 8);
        uint64_t other = word ^ percent;
        if ((word | ((other - ones) & ~other)) & high) return 1;
    }
    for (; at < length; at++) {
        unsigned char byte = (unsigned char)text[at];
        if (byte == '%' || byte >= 0x80) return 1;
    }
    return 0;
}

/// Whether the `path` bytes of a target (before its '?') hold `%00`.
/// libmicrohttpd keeps the decoded path as a C string, so it ends there:
/// `/acts.js%00.png` was served as `/acts.js`, a second reading of the path.
static inline int
sb_path_has_nul(const char *uri, size_t path)
{
    for (const char *at = uri; (at = memchr(at, '%', path - (size_t)(at - uri))) != NULL; at++) {
        if ((size_t)(at - uri) + 2 < path && at[1] == '0' && at[2] == '0') return 1;
    }
    return 0;
}

/// MHD_OPTION_URI_LOG_CALLBACK, `cls` the most query parameters allowed.
/// libmicrohttpd (0.9.75) keeps each parameter in the connection's memory
/// pool and, when the pool runs out part-way, neither answers nor closes:
/// 200 to 1,000 parameters hung a connection until its timeout. So a query
/// with more than the limit is emptied here, before libmicrohttpd reads it
/// (the URI is the connection's own buffer, NUL-terminated, about to be
/// split at '?' by libmicrohttpd itself), and the request marked, to be
/// answered 414 by the application. An escaped target is marked too.
static inline void *
sb_uri_callback(void *cls, const char *uri, struct MHD_Connection *connection)
{
    (void)connection;
    size_t limit = (size_t)(uintptr_t)cls;
    size_t length = strlen(uri);
    uintptr_t marks = sb_escaped_or_beyond_ascii(uri, length) ? SB_TARGET_ESCAPED : 0;
    char *query = memchr(uri, '?', length);
    if (marks != 0 && sb_path_has_nul(uri, query == NULL ? length : (size_t)(query - uri))) marks |= SB_TARGET_NUL;
    if (query == NULL) return (void *)marks;
    size_t count = 1;
    for (const char *at = query + 1; (at = strchr(at, '&')) != NULL; at++) {
        if (++count > limit) {
            // libmicrohttpd found the '?' before calling here and reads what
            // follows it: the query is emptied after the '?'.
            *(query + 1) = '\0';
            return (void *)(marks | SB_TARGET_CUT_QUERY);
        }
    }
    return (void *)marks;
}

static inline void *sb_uri_callback_pointer(void) { return (void *)&sb_uri_callback; }

/// MHD_OPTION_UNESCAPE_CALLBACK: libmicrohttpd's own `MHD_http_unescape`
/// (%XX decoded in place, anything else kept as it is), called only from
/// the first '%' on. It runs on the path and on every query key and value,
/// most of which have none, and copied each of their bytes onto itself
/// (about 130 instructions a call; seven calls a long poll). The result is
/// the same by construction: the bytes before the first '%' are unchanged.
static inline size_t
sb_unescape(void *cls, struct MHD_Connection *connection, char *value)
{
    (void)cls;
    (void)connection;
    size_t plain = strcspn(value, "%");
    if (value[plain] == '\0') return plain;
    return plain + MHD_http_unescape(value + plain);
}

static inline void *sb_unescape_pointer(void) { return (void *)&sb_unescape; }

/// What ``sb_head_refusal`` counts of a request's headers.
struct sb_head {
    unsigned lengths, transfers, misread, differ, chunked, hosts, host_invalid;
    const char *length;
    size_t length_size;
};

/// Whether `value` may be a Host (RFC 9112 3.2, RFC 3986 3.2.2-3.2.3):
/// a reg-name, IPv4 or IP-literal (`[`...`]`) with an optional port, in
/// the bytes those allow; empty too.
static inline int
sb_host_is_valid(const char *value, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char) value[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
        switch (c) {
        case '-': case '.': case '_': case '~': case '!': case '$': case '&': case '\'': case '(': case ')':
        case '*': case '+': case ',': case ';': case '=': case '%': case ':': case '[': case ']':
            continue;
        default:
            return 0;
        }
    }
    return 1;
}

/// One header for ``sb_head_refusal`` (MHD_KeyValueIteratorN).
static inline enum MHD_Result
sb_head_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct sb_head *head = cls;
    // A header another parser reads otherwise: white space before its colon (libmicrohttpd keeps it in the
    // name), or a CR with no LF after it (libmicrohttpd keeps it; a parser that ends a line there does not).
    if (key_size == 0 || key[key_size - 1] == ' ' || key[key_size - 1] == '\t'
        || memchr(key, '\r', key_size) != NULL || (value != NULL && memchr(value, '\r', value_size) != NULL)) {
        head->misread = 1;
        return MHD_NO;
    }
    if (key_size == 4 && strncasecmp(key, "Host", 4) == 0) {
        head->hosts++;
        // Without the white space after it (RFC 9112 5), which libmicrohttpd keeps.
        while (value_size > 0 && (value[value_size - 1] == ' ' || value[value_size - 1] == '\t')) value_size--;
        if (!sb_host_is_valid(value, value_size)) head->host_invalid = 1;
    } else if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) {
        if (head->lengths++ > 0 && (value_size != head->length_size || memcmp(value, head->length, value_size) != 0))
            head->differ = 1;
        head->length = value;
        head->length_size = value_size;
    } else if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) {
        head->transfers++;
        head->chunked = value_size == 7 && strncasecmp(value, "chunked", 7) == 0;
    }
    return MHD_YES;
}

/// `size` bytes of a Content-Length's value as a number: digits alone,
/// then white space only, at most INT64_MAX; -1 for anything else or none.
static inline int64_t
sb_content_length(const char *value, size_t size)
{
    if (value == NULL) return -1;
    while (size > 0 && (value[size - 1] == ' ' || value[size - 1] == '\t')) size--;
    if (size == 0) return -1;
    int64_t length = 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c < '0' || c > '9' || length > (INT64_MAX - (c - '0')) / 10) return -1;
        length = length * 10 + (c - '0');
    }
    return length;
}

/// A request head that is answered 400 and its connection closed, before
/// its body is read: none (`SB_HEAD_FINE`), framing another parser reads
/// otherwise, or a Host an HTTP/1.1 request must have once and well formed.
enum sb_head_verdict { SB_HEAD_FINE = 0, SB_HEAD_AMBIGUOUS_FRAMING = 1, SB_HEAD_BAD_HOST = 2 };

/// Whether a request line's version is HTTP/1.0.
static inline int
sb_is_http10(const char *version)
{
    return version != NULL && strcmp(version, MHD_HTTP_VERSION_1_0) == 0;
}

/// One pass over a request's headers, at its first call.
///
/// Framing: whether another HTTP parser (a proxy in front) could read where
/// this request's body ends otherwise than libmicrohttpd (0.9.75) does,
/// which takes the first Content-Length, lets Transfer-Encoding win over it,
/// and reads `Content-Length :` as some other header (the body then parsed
/// as the next request): a request smuggled past the proxy. Refused, as RFC
/// 9112 asks: whitespace before a header's colon (5.1), a bare CR in a
/// header (2.2: another parser may end the header there), two different
/// Content-Lengths (6.3), Transfer-Encoding beside Content-Length, in
/// HTTP/1.0, twice, or anything but `chunked` alone (6.1; libmicrohttpd
/// neither answered nor closed on `gzip, chunked`).
///
/// Host (RFC 9112 3.2): an HTTP/1.1 request without one, with two (which
/// libmicrohttpd reads the first of, and a proxy may read the last of), or
/// with one no URI authority can be. libmicrohttpd serves all three.
///
/// `content_length` is set to the request's Content-Length when it has one
/// of digits alone (white space after them aside) that an `int64_t` holds,
/// else to -1: what the application would have looked up again.
static inline enum sb_head_verdict
sb_head_refusal(struct MHD_Connection *connection, const char *version, int64_t *content_length)
{
    struct sb_head head = {0};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, sb_head_header, &head);
    *content_length = sb_content_length(head.length, head.length_size);
    if (head.misread || head.differ) return SB_HEAD_AMBIGUOUS_FRAMING;
    // The version is compared last, only for a request with Transfer-Encoding or no Host: nearly none.
    if (head.transfers > 0 && (head.lengths > 0 || head.transfers > 1 || !head.chunked || sb_is_http10(version)))
        return SB_HEAD_AMBIGUOUS_FRAMING;
    if (head.hosts > 1 || head.host_invalid || (head.hosts == 0 && !sb_is_http10(version))) return SB_HEAD_BAD_HOST;
    return SB_HEAD_FINE;
}

/// The socket of a connection, or -1.
static inline int
sb_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// ---- A daemon run by its own loop (external epoll, no internal thread) -----

/// An epoll set watching libmicrohttpd's epoll fd and `wake_fd` (an
/// eventfd, sb_eventfd_create) for input; -1 on failure.
static inline int
sb_loop_create(struct MHD_Daemon *daemon, int wake_fd)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    if (info == NULL || info->epoll_fd < 0 || wake_fd < 0) return -1;
    int set = epoll_create1(EPOLL_CLOEXEC);
    if (set < 0) return -1;
    struct epoll_event event = { .events = EPOLLIN };
    event.data.fd = info->epoll_fd;
    int failed = epoll_ctl(set, EPOLL_CTL_ADD, info->epoll_fd, &event) != 0;
    event.data.fd = wake_fd;
    if (failed || epoll_ctl(set, EPOLL_CTL_ADD, wake_fd, &event) != 0) {
        close(set);
        return -1;
    }
    return set;
}

/// Sleeps on `set` until libmicrohttpd has work (a socket, or its next
/// timeout) or `wake_fd` is written, and at most `most_ms` (none when
/// negative); empties `wake_fd` if it was.
static inline void
sb_loop_wait(struct MHD_Daemon *daemon, int set, int wake_fd, int most_ms)
{
    MHD_UNSIGNED_LONG_LONG next = 0;
    int timeout = -1;
    if (MHD_get_timeout(daemon, &next) == MHD_YES) timeout = next > 60000 ? 60000 : (int) next;
    if (most_ms >= 0 && (timeout < 0 || timeout > most_ms)) timeout = most_ms;
    struct epoll_event events[2];
    int ready = epoll_wait(set, events, 2, timeout);
    for (int i = 0; i < ready; i++) {
        if (events[i].data.fd == wake_fd) {
            uint64_t count;
            (void)!read(wake_fd, &count, sizeof count);
        }
    }
}

/// MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE): libmicrohttpd is done
/// with an upgraded socket (variadic in C).
static inline enum MHD_Result
sb_upgrade_close(struct MHD_UpgradeResponseHandle *urh)
{
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}


// ---- A certificate that can be replaced while serving (SIGHUP) -------------
//
// libmicrohttpd hands GnuTLS a certificate callback (MHD_OPTION_HTTPS_CERT_CALLBACK)
// that has no context argument. Each connection's socket context, set when it
// starts (MHD_OPTION_NOTIFY_CONNECTION), points at the daemon's slot; the
// callback reaches it through the GnuTLS session (whose pointer libmicrohttpd
// sets to the connection). A reload swaps the slot's credentials under its
// lock; the ones replaced stay alive until the slot is destroyed, since a
// handshake in progress may still use them.

/// A certificate chain and its private key, loaded.
typedef struct sb_tls_credentials {
    gnutls_pcert_st *pcerts;
    unsigned int count;
    gnutls_privkey_t key;
    struct sb_tls_credentials *retired_next;
} sb_tls_credentials;

/// The credentials a daemon serves with now.
typedef struct sb_tls_slot {
    pthread_mutex_t lock;
    sb_tls_credentials *current;
} sb_tls_slot;

static inline void
sb_tls_credentials_free(sb_tls_credentials *credentials)
{
    for (unsigned int i = 0; i < credentials->count; i++) gnutls_pcert_deinit(&credentials->pcerts[i]);
    free(credentials->pcerts);
    if (credentials->key != NULL) gnutls_privkey_deinit(credentials->key);
    free(credentials);
}

/// Loads a PEM certificate chain (the server's first) and its PEM key, and
/// checks that the key is the certificate's. NULL on failure, with a GnuTLS
/// error code in *error (GNUTLS_E_CERTIFICATE_KEY_MISMATCH for a wrong pair).
static inline sb_tls_credentials *
sb_tls_credentials_load(const char *certificate_pem, size_t certificate_length,
                        const char *key_pem, size_t key_length, int *error)
{
    sb_tls_credentials *credentials = calloc(1, sizeof(sb_tls_credentials));
    unsigned int capacity = 16;
    credentials->pcerts = calloc(capacity, sizeof(gnutls_pcert_st));
    gnutls_datum_t certificate = { (unsigned char *)certificate_pem, (unsigned int)certificate_length };
    gnutls_datum_t key = { (unsigned char *)key_pem, (unsigned int)key_length };
    int rc = gnutls_pcert_list_import_x509_raw(credentials->pcerts, &capacity, &certificate, GNUTLS_X509_FMT_PEM, 0);
    if (rc < 0) {
        free(credentials->pcerts);
        free(credentials);
        *error = rc;
        return NULL;
    }
    credentials->count = capacity;
    rc = gnutls_privkey_init(&credentials->key);
    if (rc >= 0) rc = gnutls_privkey_import_x509_raw(credentials->key, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
    if (rc >= 0 && credentials->count > 0) {
        gnutls_pubkey_t from_key;
        unsigned char a[64], b[64];
        size_t a_size = sizeof a, b_size = sizeof b;
        rc = gnutls_pubkey_init(&from_key);
        if (rc >= 0) rc = gnutls_pubkey_import_privkey(from_key, credentials->key, 0, 0);
        if (rc >= 0) rc = gnutls_pubkey_get_key_id(from_key, 0, a, &a_size);
        if (rc >= 0) rc = gnutls_pubkey_get_key_id(credentials->pcerts[0].pubkey, 0, b, &b_size);
        if (rc >= 0 && (a_size != b_size || memcmp(a, b, a_size) != 0)) rc = GNUTLS_E_CERTIFICATE_KEY_MISMATCH;
        gnutls_pubkey_deinit(from_key);
    }
    if (rc < 0) {
        sb_tls_credentials_free(credentials);
        *error = rc;
        return NULL;
    }
    return credentials;
}

/// GnuTLS's description of an error code.
static inline const char *
sb_tls_error_text(int error)
{
    return gnutls_strerror(error);
}

static inline sb_tls_slot *
sb_tls_slot_create(sb_tls_credentials *credentials)
{
    sb_tls_slot *slot = calloc(1, sizeof(sb_tls_slot));
    pthread_mutex_init(&slot->lock, NULL);
    slot->current = credentials;
    return slot;
}

/// Serves `credentials` from now on; the ones replaced are kept until the slot goes.
static inline void
sb_tls_slot_replace(sb_tls_slot *slot, sb_tls_credentials *credentials)
{
    pthread_mutex_lock(&slot->lock);
    credentials->retired_next = slot->current;
    slot->current = credentials;
    pthread_mutex_unlock(&slot->lock);
}

/// After the daemon stopped: frees the slot and every credentials it held.
static inline void
sb_tls_slot_destroy(sb_tls_slot *slot)
{
    sb_tls_credentials *credentials = slot->current;
    while (credentials != NULL) {
        sb_tls_credentials *next = credentials->retired_next;
        sb_tls_credentials_free(credentials);
        credentials = next;
    }
    pthread_mutex_destroy(&slot->lock);
    free(slot);
}

/// MHD_OPTION_HTTPS_CERT_CALLBACK: the slot's current credentials.
static inline int
sb_tls_retrieve(gnutls_session_t session, const gnutls_datum_t *req_ca_dn, int nreqs,
                const gnutls_pk_algorithm_t *algorithms, int algorithms_length,
                gnutls_pcert_st **pcert, unsigned int *pcert_length, gnutls_privkey_t *key)
{
    (void)req_ca_dn; (void)nreqs; (void)algorithms; (void)algorithms_length;
    struct MHD_Connection *connection = gnutls_session_get_ptr(session);
    const union MHD_ConnectionInfo *info =
        connection == NULL ? NULL : MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    sb_tls_slot *slot = info == NULL ? NULL : (sb_tls_slot *)info->socket_context;
    if (slot == NULL) return -1;
    pthread_mutex_lock(&slot->lock);
    *pcert = slot->current->pcerts;
    *pcert_length = slot->current->count;
    *key = slot->current->key;
    pthread_mutex_unlock(&slot->lock);
    return 0;
}

/// The certificate callback as the pointer libmicrohttpd's option takes (a
/// connection's socket context is its daemon's slot, set by the Swift side's
/// connection notice).
static inline void *sb_tls_retrieve_pointer(void) { return (void *)&sb_tls_retrieve; }

#endif
