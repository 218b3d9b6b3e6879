#include <sqlite3.h>

/* Turns SQLite's memory statistics off, so that an allocation takes no global mutex (about
   18 a durable write otherwise, though each connection is opened without its own mutex).
   Only before the library is first used (an open initialises it): SQLITE_MISUSE after. */
static inline int tabula_sqlite_without_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
