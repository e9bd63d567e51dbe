internal import CSQLiteConfig

/// SQLite's settings for the whole process, applied once, before the first
/// connection opens (``SQLiteMessageStore`` reads ``applied`` first thing).
///
/// Memory statistics off: Debian's SQLite counts every allocation under a
/// global mutex (`SQLITE_DEFAULT_MEMSTATUS`), about 59 mutex enters and
/// leaves a publish on the commit thread (callgrind, one publish a
/// transaction), for figures nothing here reads (`sqlite3_memory_used`).
/// The connections' own mutexes are already off: GRDB opens every
/// connection with `SQLITE_OPEN_NOMUTEX`, as it hands each to one thread at
/// a time.
///
/// A setting of the C library for the process, so it lives where the C
/// library keeps it; this type only makes sure it is set before use.
enum SQLiteProcessSettings {
    /// `SQLITE_OK` (0) when set; `SQLITE_MISUSE` (21) when SQLite had already
    /// been initialised (it then keeps counting: correct, only slower).
    static let applied: Int32 = sb_sqlite_disable_memory_statistics()
}
