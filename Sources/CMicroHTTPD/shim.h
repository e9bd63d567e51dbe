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

/// The client's socket address of a connection, or NULL.
static inline const struct sockaddr *
sb_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE): libmicrohttpd is done
/// with an upgraded socket (variadic in C).
static inline enum MHD_Result
sb_upgrade_close(struct MHD_UpgradeResponseHandle *urh)
{
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}

#endif
