/*
 * libmicrohttpd's floor for a publish: the least a server on libmicrohttpd
 * can spend on Switchboard's publish request, for Scripts/http-floor.sh.
 *
 * Every POST is read to its end and answered 201 with a fixed message of
 * the size Switchboard answers and its two headers (Content-Type,
 * Location; before 2026-12-01 also Cache-Control); anything else is 404.
 * No parsing, no store, no other thread: what is left of a publish's cost
 * on libmicrohttpd is the library's and the kernel's. Configured as
 * Switchboard's daemon is by default: epoll, one thread, suspend and
 * resume allowed (Switchboard waits that way), a 12 KiB pool a
 * connection, at most 10,000 connections.
 *
 *   clang -O2 -o mhd-floor Scripts/mhd-floor.c -lmicrohttpd && ./mhd-floor PORT  (clang: Swift's)
 */
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char created[] =
    "{\"id\":1,\"room\":\"wrk\",\"user\":\"bench\",\"text\":\"a message of ordinary length for the benchmark\","
    "\"kind\":\"message\",\"ts\":1795921417922}";

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls; (void)url; (void)version; (void)upload_data;
    static int started;
    if (*state == NULL) {  /* the headers: wait for the body */
        *state = &started;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {  /* a part of the body: taken */
        *upload_data_size = 0;
        return MHD_YES;
    }
    int post = strcmp(method, "POST") == 0;
    struct MHD_Response *response = MHD_create_response_from_buffer(post ? sizeof created - 1 : 0, (void *)created,
                                                                    MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    if (post) {
        MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
        MHD_add_response_header(response, "Location", "/api/rooms/wrk/messages/1");
    }
    enum MHD_Result queued = MHD_queue_response(connection, post ? 201 : 404, response);
    MHD_destroy_response(response);
    return queued;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    /* Blocked before libmicrohttpd's thread starts, which inherits the mask:
       SIGINT and SIGTERM come to sigwait below, and the daemon stops cleanly. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(12 * 1024), MHD_OPTION_CONNECTION_LIMIT, (unsigned int)10000,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)4096, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "mhd-floor: could not listen on %s\n", argv[1]);
        return 1;
    }
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
