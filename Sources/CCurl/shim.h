#ifndef GLOSSARY_CCURL_SHIM_H
#define GLOSSARY_CCURL_SHIM_H

#include <curl/curl.h>

// Swift cannot call C variadic functions, so each curl_easy_setopt / curl_easy_getinfo /
// curl_multi_setopt use gets a typed wrapper here.

static inline CURLcode glossary_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode glossary_easy_setopt_write_function(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode glossary_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode glossary_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode glossary_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode glossary_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

static inline long glossary_curl_global_all(void) { return CURL_GLOBAL_ALL; }

// CURLVERSION_NOW is a macro naming an enum case, which Swift does not import.
static inline curl_version_info_data *glossary_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
