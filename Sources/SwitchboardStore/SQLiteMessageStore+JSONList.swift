import SwitchboardCore

extension SQLiteMessageStore {
    /// `values` as one JSON array, the argument a statement reads with
    /// `IN (SELECT value FROM json_each(?))`: its SQL stays the same whatever
    /// the list's length, so it is compiled once per connection.
    static func jsonList(_ values: [String]) -> String {
        String(decoding: MessageJSON.encode(strings: values), as: UTF8.self)
    }

    /// `ids` as one JSON array (``jsonList(_:)-([String])``).
    static func jsonList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
