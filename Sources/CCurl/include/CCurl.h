#ifndef CCURL_H
#define CCURL_H
#include <stddef.h>
#include <stdint.h>

/// libcurl's easy interface, loaded at run time (libcurl.so.4, which FoundationNetworking
/// itself needs, so it is on every machine the tool runs on).
///
/// The web client talks to libcurl directly rather than through URLSession because URLSession
/// always lets libcurl decompress a gzip or deflate answer and hands the decompressed chunks
/// to a queue with no back-pressure: a 1 MB gzip bomb became a gigabyte in memory before the
/// size cap was checked. Here the write callback sees every decompressed chunk as libcurl makes
/// it and stops the transfer the moment the cap (or the compression-ratio limit) is passed.
///
/// `curl_easy_setopt` and `curl_easy_getinfo` are variadic, so Swift cannot call them: one
/// wrapper per argument type. Option and info numbers are libcurl's stable ABI values.

/// Loads libcurl and initializes it once. 1 when it is usable, 0 when it could not be loaded.
int ttcurl_load(void);
/// What went wrong loading it (dlerror's text), or "".
const char *ttcurl_load_error(void);

void *ttcurl_easy_init(void);
void ttcurl_easy_cleanup(void *handle);
int ttcurl_setopt_long(void *handle, int option, long value);
int ttcurl_setopt_pointer(void *handle, int option, const void *value);
int ttcurl_setopt_offset(void *handle, int option, int64_t value);
int ttcurl_easy_perform(void *handle);
int ttcurl_getinfo_long(void *handle, int info, long *value);
int ttcurl_getinfo_offset(void *handle, int info, int64_t *value);
const char *ttcurl_easy_strerror(int code);
void *ttcurl_slist_append(void *list, const char *text);
void ttcurl_slist_free_all(void *list);

/// The callback types libcurl calls (data, size, count, context) and (context, dltotal, dlnow,
/// ultotal, ulnow).
typedef size_t (*ttcurl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ttcurl_progress_callback)(void *context, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow);

int ttcurl_setopt_write_callback(void *handle, int option, ttcurl_write_callback callback);
int ttcurl_setopt_progress_callback(void *handle, int option, ttcurl_progress_callback callback);

#endif
