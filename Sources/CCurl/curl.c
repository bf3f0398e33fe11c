#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef void *(*init_fn)(void);
typedef void (*cleanup_fn)(void *);
typedef int (*setopt_fn)(void *, int, ...);
typedef int (*perform_fn)(void *);
typedef int (*getinfo_fn)(void *, int, ...);
typedef const char *(*strerror_fn)(int);
typedef void *(*slist_append_fn)(void *, const char *);
typedef void (*slist_free_fn)(void *);
typedef int (*global_init_fn)(long);

static struct {
    init_fn init;
    cleanup_fn cleanup;
    setopt_fn setopt;
    perform_fn perform;
    getinfo_fn getinfo;
    strerror_fn strerror;
    slist_append_fn slist_append;
    slist_free_fn slist_free;
    int loaded;
    char error[256];
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", NULL};
    void *library = NULL;
    for (int i = 0; names[i] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        strncpy(curl.error, why ? why : "libcurl.so.4 not found", sizeof curl.error - 1);
        return;
    }
    global_init_fn global_init = (global_init_fn)dlsym(library, "curl_global_init");
    curl.init = (init_fn)dlsym(library, "curl_easy_init");
    curl.cleanup = (cleanup_fn)dlsym(library, "curl_easy_cleanup");
    curl.setopt = (setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.perform = (perform_fn)dlsym(library, "curl_easy_perform");
    curl.getinfo = (getinfo_fn)dlsym(library, "curl_easy_getinfo");
    curl.strerror = (strerror_fn)dlsym(library, "curl_easy_strerror");
    curl.slist_append = (slist_append_fn)dlsym(library, "curl_slist_append");
    curl.slist_free = (slist_free_fn)dlsym(library, "curl_slist_free_all");
    if (!global_init || !curl.init || !curl.cleanup || !curl.setopt || !curl.perform || !curl.getinfo || !curl.strerror ||
        !curl.slist_append || !curl.slist_free) {
        strncpy(curl.error, "libcurl.so.4 lacks a function of the easy interface", sizeof curl.error - 1);
        return;
    }
    /* CURL_GLOBAL_ALL (SSL and Win32): reference-counted, so FoundationNetworking's own call is unaffected. */
    if (global_init(3L) != 0) {
        strncpy(curl.error, "curl_global_init failed", sizeof curl.error - 1);
        return;
    }
    curl.loaded = 1;
}

int ttcurl_load(void) {
    pthread_once(&once, load);
    return curl.loaded;
}

const char *ttcurl_load_error(void) { return curl.error; }

void *ttcurl_easy_init(void) { return ttcurl_load() ? curl.init() : NULL; }
void ttcurl_easy_cleanup(void *handle) {
    if (handle) curl.cleanup(handle);
}
int ttcurl_setopt_long(void *handle, int option, long value) { return curl.setopt(handle, option, value); }
int ttcurl_setopt_pointer(void *handle, int option, const void *value) { return curl.setopt(handle, option, value); }
int ttcurl_setopt_offset(void *handle, int option, int64_t value) { return curl.setopt(handle, option, value); }
int ttcurl_setopt_write_callback(void *handle, int option, ttcurl_write_callback callback) { return curl.setopt(handle, option, callback); }
int ttcurl_setopt_progress_callback(void *handle, int option, ttcurl_progress_callback callback) { return curl.setopt(handle, option, callback); }
int ttcurl_easy_perform(void *handle) { return curl.perform(handle); }
int ttcurl_getinfo_long(void *handle, int info, long *value) { return curl.getinfo(handle, info, value); }
int ttcurl_getinfo_offset(void *handle, int info, int64_t *value) { return curl.getinfo(handle, info, value); }
const char *ttcurl_easy_strerror(int code) { return ttcurl_load() ? curl.strerror(code) : "libcurl is not loaded"; }
void *ttcurl_slist_append(void *list, const char *text) { return curl.slist_append(list, text); }
void ttcurl_slist_free_all(void *list) {
    if (list) curl.slist_free(list);
}
