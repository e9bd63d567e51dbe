/// Why a backup (`switchboard backup`) was not made, in words for its operator.
public struct BackupError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
