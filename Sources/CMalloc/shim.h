// glibc's extensions that the Glibc module does not export: the
// allocator's controls (malloc.h) and a thread's name. Only SwitchboardCore
// imports this module.
#ifndef SWITCHBOARD_CMALLOC_SHIM_H
#define SWITCHBOARD_CMALLOC_SHIM_H

#include <malloc.h>
#include <pthread.h>

/// Gives the pages that freed memory left in every arena back to the
/// system (glibc's malloc_trim). Returns whether any were.
static inline int sb_return_free_memory(void) { return malloc_trim(0); }

/// glibc's own declaration is behind _GNU_SOURCE, which a module's header
/// cannot turn on for the system headers it shares.
extern int pthread_setname_np(pthread_t thread, const char *name);

/// Names the calling thread as `top -H`, `perf` and /proc show it (at most
/// 15 bytes; a longer name is refused). 0 when done.
static inline int sb_name_this_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

#endif
