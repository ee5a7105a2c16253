#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <microhttpd.h>

/* libmicrohttpd is not linked: `HTTPServer` loads libmicrohttpd.so.12 with dlopen when a server first starts (or
   `glossary --version` asks), and finds each function with dlsym. These are the types it casts them to, taken from
   microhttpd.h's own declarations, so a prototype can't be got wrong. */
typedef __typeof__(MHD_get_version) *glossary_mhd_get_version_fn;
typedef __typeof__(MHD_stop_daemon) *glossary_mhd_stop_daemon_fn;
typedef __typeof__(MHD_lookup_connection_value) *glossary_mhd_lookup_connection_value_fn;
typedef __typeof__(MHD_create_response_from_buffer) *glossary_mhd_create_response_from_buffer_fn;
typedef __typeof__(MHD_create_response_from_fd64) *glossary_mhd_create_response_from_fd64_fn;
typedef __typeof__(MHD_create_response_from_callback) *glossary_mhd_create_response_from_callback_fn;
typedef __typeof__(MHD_destroy_response) *glossary_mhd_destroy_response_fn;
typedef __typeof__(MHD_add_response_header) *glossary_mhd_add_response_header_fn;
typedef __typeof__(MHD_queue_response) *glossary_mhd_queue_response_fn;

/* Swift cannot call C variadic functions: typed wrappers for the ones the preview server needs, each given the
   function dlsym found. */

/* Called by MHD to unescape the URL path and arguments in place; returns the new length. */
typedef size_t (*glossary_mhd_unescape_callback)(void *cls, struct MHD_Connection *connection, char *text);

/* Called by MHD once a request line is in, before its headers; returns the request's first context (NULL). */
typedef void *(*glossary_mhd_request_line_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/* What the preview server asks of MHD besides the address and the handler. MHD is given no per-address
   limit: the preview server keeps its own, choosing which connection makes room. */
struct glossary_mhd_settings {
    size_t connection_memory_limit;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    glossary_mhd_unescape_callback unescape;
    /* Told of each request line (with `callback_cls`). */
    glossary_mhd_request_line_callback request_line;
    /* Told of every connection's start and close (with `callback_cls`). */
    MHD_NotifyConnectionCallback notify_connection;
    /* Told when each request is done (with `callback_cls`). */
    MHD_RequestCompletedCallback notify_completed;
    void *callback_cls;
};

/* Starts a daemon bound to `address` with the preview server's limits and callbacks. */
static inline struct MHD_Daemon *glossary_mhd_start(
    void *start_daemon, unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    const struct glossary_mhd_settings *settings)
{
    return ((__typeof__(MHD_start_daemon) *)start_daemon)(
        flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
        MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
        MHD_OPTION_UNESCAPE_CALLBACK, settings->unescape, NULL,
        MHD_OPTION_URI_LOG_CALLBACK, settings->request_line, settings->callback_cls,
        MHD_OPTION_NOTIFY_CONNECTION, settings->notify_connection, settings->callback_cls,
        MHD_OPTION_NOTIFY_COMPLETED, settings->notify_completed, settings->callback_cls,
        MHD_OPTION_END);
}

/* The port the daemon listens on (the real one when it was started on port 0); 0 if unknown. */
static inline uint16_t glossary_mhd_bound_port(void *get_daemon_info, struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = ((__typeof__(MHD_get_daemon_info) *)get_daemon_info)(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/* The connection's socket; -1 if unknown. */
static inline int glossary_mhd_connection_socket(void *get_connection_info, struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = ((__typeof__(MHD_get_connection_info) *)get_connection_info)(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

/* The client's address (as accepted); NULL if unknown. */
static inline const struct sockaddr *glossary_mhd_connection_client_address(
    void *get_connection_info, struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = ((__typeof__(MHD_get_connection_info) *)get_connection_info)(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info != NULL ? info->client_addr : NULL;
}
