import GRDB
import SwitchboardCore

/// A row that could not be decoded: GRDB's description shows the row's
/// values (a message's text), which are not a client's to read.
extension RowDecodingError: StoreErrorDescribing {
    public var summary: String { "SQLite: a stored row could not be read" }
}
