/// The PostgreSQL database could not be opened or brought up to date at
/// start: which one (without its password) and why, for the operator.
public struct PostgresOpenError: Error, CustomStringConvertible {
    /// The `--db` URL, its password left out.
    public var url: String
    /// What went wrong.
    public var underlying: any Error

    public var description: String {
        let why = (underlying as? PostgresStoreError)?.detailForOperator ?? "\(underlying)"
        return "cannot open the PostgreSQL database \(url): \(why)"
    }
}
