// glibc's allocator controls (malloc.h), which the Glibc module does not
// export. Only SwitchboardCore imports this module (MemoryReturn.swift).
#ifndef SWITCHBOARD_CMALLOC_SHIM_H
#define SWITCHBOARD_CMALLOC_SHIM_H

#include <malloc.h>

/// Gives the pages that freed memory left in every arena back to the
/// system (glibc's malloc_trim). Returns whether any were.
static inline int sb_return_free_memory(void) { return malloc_trim(0); }

#endif
