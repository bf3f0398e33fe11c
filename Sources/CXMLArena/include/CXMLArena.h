#ifndef CXMLARENA_H
#define CXMLARENA_H
#include <stddef.h>

/// Arenas for libxml2's allocations while it builds a document.
///
/// libxml2 spends much of a parse in `malloc` and `free`: a node, its name, each attribute and
/// each text run is an allocation of its own, and `xmlFreeDoc` walks the tree to free them one
/// by one. A document parsed inside an arena takes its memory from a few large chunks instead
/// and gives it back in one step when the document goes.
///
/// `ttxml_install` routes libxml2's allocator through this library once per process (before
/// libxml2 is initialized). Outside an arena every allocation goes to `malloc` as before (with
/// a 16-byte header saying so); inside one, on the thread that began it, allocations are carved
/// from the arena's chunks and `free` of them does nothing until the arena is released.

/// An arena: its chunks and how much of them is used.
typedef struct TTXMLArena TTXMLArena;

/// Routes libxml2's allocator through this library and initializes libxml2 (once; later calls
/// return at once). Call before any libxml2 use.
void ttxml_install(void);

/// Starts an arena on this thread: libxml2's allocations on this thread come from it until
/// `ttxml_arena_end`. Past `limit` bytes, allocations go to `malloc` again (the arena is then
/// marked overflowed). Returns NULL when no memory is left for the arena itself.
TTXMLArena *ttxml_arena_begin(size_t limit);

/// Stops directing this thread's allocations into the arena (its memory stays valid).
void ttxml_arena_end(TTXMLArena *arena);

/// Whether some allocation made while the arena was active went to `malloc` (it was full).
/// A document with such parts must be freed with `xmlFreeDoc` before the arena is released.
int ttxml_arena_overflowed(const TTXMLArena *arena);

/// Bytes handed out by the arena (headers and alignment included).
size_t ttxml_arena_used(const TTXMLArena *arena);

/// Gives the arena's memory back (to a small pool of chunks for the next arena, or to the
/// system). Nothing allocated in it may be used afterwards. Any thread may release an arena
/// that is no longer active.
void ttxml_arena_release(TTXMLArena *arena);

#endif
