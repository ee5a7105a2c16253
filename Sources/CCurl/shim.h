#ifndef GLOSSARY_CCURL_SHIM_H
#define GLOSSARY_CCURL_SHIM_H

#include <curl/curl.h>

// libcurl is not linked: `CurlTransport` loads libcurl.so.4 with dlopen when the first transfer (or
// `glossary --version`) needs it, and finds each function with dlsym. These are the types it casts them to, taken
// from curl.h's own declarations, so a prototype can't be got wrong.

typedef __typeof__(curl_global_init) *glossary_curl_global_init_fn;
typedef __typeof__(curl_version_info) *glossary_curl_version_info_fn;
typedef __typeof__(curl_slist_append) *glossary_curl_slist_append_fn;
typedef __typeof__(curl_slist_free_all) *glossary_curl_slist_free_all_fn;
typedef __typeof__(curl_easy_init) *glossary_curl_easy_init_fn;
typedef __typeof__(curl_easy_cleanup) *glossary_curl_easy_cleanup_fn;
typedef __typeof__(curl_easy_strerror) *glossary_curl_easy_strerror_fn;
typedef __typeof__(curl_easy_header) *glossary_curl_easy_header_fn;
typedef __typeof__(curl_multi_init) *glossary_curl_multi_init_fn;
typedef __typeof__(curl_multi_cleanup) *glossary_curl_multi_cleanup_fn;
typedef __typeof__(curl_multi_add_handle) *glossary_curl_multi_add_handle_fn;
typedef __typeof__(curl_multi_remove_handle) *glossary_curl_multi_remove_handle_fn;
typedef __typeof__(curl_multi_perform) *glossary_curl_multi_perform_fn;
typedef __typeof__(curl_multi_poll) *glossary_curl_multi_poll_fn;
typedef __typeof__(curl_multi_wakeup) *glossary_curl_multi_wakeup_fn;
typedef __typeof__(curl_multi_info_read) *glossary_curl_multi_info_read_fn;
typedef __typeof__(curl_multi_strerror) *glossary_curl_multi_strerror_fn;

// Swift cannot call C variadic functions, so each curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt use
// gets a typed wrapper here, given the function dlsym found.

static inline CURLcode glossary_easy_setopt_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_off_t(void *setopt, CURL *handle, CURLoption option, curl_off_t value) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_slist(void *setopt, CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_write_function(void *setopt, CURL *handle, curl_write_callback callback) {
    return ((__typeof__(curl_easy_setopt) *)setopt)(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode glossary_easy_getinfo_long(void *getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((__typeof__(curl_easy_getinfo) *)getinfo)(handle, info, value);
}

static inline CURLcode glossary_easy_getinfo_off_t(void *getinfo, CURL *handle, CURLINFO info, curl_off_t *value) {
    return ((__typeof__(curl_easy_getinfo) *)getinfo)(handle, info, value);
}

static inline CURLcode glossary_easy_getinfo_string(void *getinfo, CURL *handle, CURLINFO info, char **value) {
    return ((__typeof__(curl_easy_getinfo) *)getinfo)(handle, info, value);
}

static inline CURLMcode glossary_multi_setopt_long(void *setopt, CURLM *handle, CURLMoption option, long value) {
    return ((__typeof__(curl_multi_setopt) *)setopt)(handle, option, value);
}

static inline long glossary_curl_global_all(void) { return CURL_GLOBAL_ALL; }

// CURLVERSION_NOW is a macro naming an enum case, which Swift does not import.
static inline CURLversion glossary_curl_version_now(void) { return CURLVERSION_NOW; }

#endif
