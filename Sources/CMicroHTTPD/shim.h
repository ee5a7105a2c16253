#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <microhttpd.h>

/* Swift cannot call C variadic functions: typed wrappers for the two the preview server needs. */

/* Called by MHD to unescape the URL path and arguments in place; returns the new length. */
typedef size_t (*glossary_mhd_unescape_callback)(void *cls, struct MHD_Connection *connection, char *text);

/* Starts a daemon bound to `address` with the preview server's limits. */
static inline struct MHD_Daemon *glossary_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    size_t connection_memory_limit, unsigned int connection_limit, unsigned int connection_timeout_seconds,
    glossary_mhd_unescape_callback unescape)
{
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
        MHD_OPTION_END);
}

/* The port the daemon listens on (the real one when it was started on port 0); 0 if unknown. */
static inline uint16_t glossary_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}
