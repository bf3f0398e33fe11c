#include "CXMLArena.h"

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the arena relies on, checked where it is built. A libxml2 whose allocation hooks are
   per thread would not route every thread's allocations through ttxml_install's hooks; the
   header tags are told apart from glibc's chunk size field, so another C library could put a
   tag's value there. */
#if defined(LIBXML_THREAD_ALLOC_ENABLED)
#error "CXMLArena needs a libxml2 built without per-thread allocation hooks (LIBXML_THREAD_ALLOC_ENABLED)"
#endif
#if !defined(__GLIBC__)
#error "CXMLArena tells its blocks from malloc's by glibc's chunk header: build it on glibc (Linux)"
#endif

/* Every block handed to libxml2 after ttxml_install starts with this header. The tag sits in
   the eight bytes right before the block: for a block glibc's malloc gave libxml2 before the
   install, those bytes are glibc's chunk size field, which never equals either tag. */
typedef struct {
    size_t size;
    uint64_t tag;
} Header;

#define TAG_ARENA 0x41726e6158545454ULL  /* carved from an arena: free does nothing */
#define TAG_SYSTEM 0x53797358544d414cULL /* malloc'd with a header */

typedef struct Chunk {
    struct Chunk *next;
    size_t capacity; /* bytes, this header included */
} Chunk;

struct TTXMLArena {
    Chunk *chunks;
    char *cur;  /* next free byte of the newest chunk */
    char *end;  /* end of the newest chunk */
    char *last; /* header of the newest block, which may grow in place */
    size_t used;
    size_t limit;
    int overflowed;
    TTXMLArena *outer; /* the arena active before this one began, if any */
};

enum { CHUNK_SIZE = 256 * 1024, POOL_MAX = 32 };

static __thread TTXMLArena *current;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static Chunk *pool;
static int pooled;

static size_t rounded(size_t n) { return (sizeof(Header) + n + 15) & ~(size_t)15; }

static void *system_alloc(size_t n) {
    if (n > SIZE_MAX - sizeof(Header) - 16) return NULL;
    Header *h = malloc(sizeof(Header) + n);
    if (h == NULL) return NULL;
    h->size = n;
    h->tag = TAG_SYSTEM;
    return h + 1;
}

static int new_chunk(TTXMLArena *a, size_t need) {
    size_t capacity = need + sizeof(Chunk) <= CHUNK_SIZE ? CHUNK_SIZE : need + sizeof(Chunk);
    Chunk *c = NULL;
    if (capacity == CHUNK_SIZE) {
        pthread_mutex_lock(&pool_lock);
        c = pool;
        if (c != NULL) {
            pool = c->next;
            pooled--;
        }
        pthread_mutex_unlock(&pool_lock);
    }
    if (c == NULL) {
        c = malloc(capacity);
        if (c == NULL) return 0;
        c->capacity = capacity;
    }
    c->next = a->chunks;
    a->chunks = c;
    a->cur = (char *)(c + 1);
    a->end = (char *)c + capacity;
    a->last = NULL;
    return 1;
}

static void *arena_alloc(TTXMLArena *a, size_t n) {
    if (n > a->limit) return NULL;
    size_t need = rounded(n);
    if (a->used + need > a->limit) return NULL;
    if (a->cur == NULL || (size_t)(a->end - a->cur) < need) {
        if (!new_chunk(a, need)) return NULL;
    }
    Header *h = (Header *)a->cur;
    h->size = n;
    h->tag = TAG_ARENA;
    a->last = a->cur;
    a->cur += need;
    a->used += need;
    return h + 1;
}

static void *tt_malloc(size_t n) {
    TTXMLArena *a = current;
    if (a != NULL) {
        void *p = arena_alloc(a, n);
        if (p != NULL) return p;
        a->overflowed = 1;
    }
    return system_alloc(n);
}

static void tt_free(void *p) {
    if (p == NULL) return;
    Header *h = (Header *)p - 1;
    if (h->tag == TAG_ARENA) return;
    if (h->tag == TAG_SYSTEM) {
        h->tag = 0;
        free(h);
        return;
    }
    free(p); /* allocated before the install */
}

static void *tt_realloc(void *p, size_t n) {
    if (p == NULL) return tt_malloc(n);
    Header *h = (Header *)p - 1;
    if (h->tag == TAG_SYSTEM) {
        if (n > SIZE_MAX - sizeof(Header) - 16) return NULL;
        Header *g = realloc(h, sizeof(Header) + n);
        if (g == NULL) return NULL;
        g->size = n;
        return g + 1;
    }
    if (h->tag != TAG_ARENA) return realloc(p, n);
    TTXMLArena *a = current;
    if (a != NULL && (char *)h == a->last && n <= a->limit) {
        /* The newest block of the active arena grows (or shrinks) where it is when it fits. */
        size_t need = rounded(n);
        size_t had = (size_t)(a->cur - a->last);
        if ((size_t)(a->end - a->last) >= need && a->used - had + need <= a->limit) {
            a->used = a->used - had + need;
            a->cur = a->last + need;
            h->size = n;
            return p;
        }
    }
    void *q = tt_malloc(n);
    if (q == NULL) return NULL;
    memcpy(q, p, h->size < n ? h->size : n);
    return q;
}

static char *tt_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *q = tt_malloc(n);
    if (q != NULL) memcpy(q, s, n);
    return q;
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install(void) {
    xmlMemSetup(tt_free, tt_malloc, tt_realloc, tt_strdup);
    /* Everything libxml2 keeps for the whole process (encoding handlers, the dictionary lock,
       default handlers) is made now, outside any arena. */
    xmlInitParser();
}

void ttxml_install(void) { pthread_once(&install_once, install); }

TTXMLArena *ttxml_arena_begin(size_t limit) {
    TTXMLArena *a = calloc(1, sizeof(TTXMLArena));
    if (a == NULL) return NULL;
    a->limit = limit;
    /* The thread's last-error record is libxml2's only state that outlives a parse: clear it
       now (its strings are malloc'd) and again at the end (they may be the arena's). */
    xmlResetLastError();
    a->outer = current;
    current = a;
    return a;
}

void ttxml_arena_end(TTXMLArena *a) {
    if (a == NULL) return;
    xmlResetLastError();
#ifndef NDEBUG
    /* Arenas nest: the one that ends must be the one that began last on this thread. */
    if (current != a) {
        fprintf(stderr, "CXMLArena: an arena ended that is not the thread's current one\n");
        abort();
    }
#endif
    if (current == a) current = a->outer;
}

int ttxml_arena_overflowed(const TTXMLArena *a) { return a != NULL && a->overflowed; }

size_t ttxml_arena_used(const TTXMLArena *a) { return a == NULL ? 0 : a->used; }

void ttxml_arena_release(TTXMLArena *a) {
    if (a == NULL) return;
    Chunk *c = a->chunks;
    while (c != NULL) {
        Chunk *next = c->next;
        int kept = 0;
        if (c->capacity == CHUNK_SIZE) {
            pthread_mutex_lock(&pool_lock);
            if (pooled < POOL_MAX) {
                c->next = pool;
                pool = c;
                pooled++;
                kept = 1;
            }
            pthread_mutex_unlock(&pool_lock);
        }
        if (!kept) free(c);
        c = next;
    }
    free(a);
}
