// SQLite's process-wide settings, which Swift cannot set itself:
// sqlite3_config is variadic. Only SwitchboardStore imports this module.
#ifndef SWITCHBOARD_CSQLITECONFIG_SHIM_H
#define SWITCHBOARD_CSQLITECONFIG_SHIM_H

#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a global mutex at every
/// allocation and free. Must run before SQLite is initialised (before the
/// process opens its first connection); returns SQLITE_OK, or SQLITE_MISUSE
/// when it was already initialised (SQLite then keeps counting: correct,
/// only slower).
static inline int sb_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
