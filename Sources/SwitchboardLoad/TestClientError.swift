import Foundation
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#endif

public struct TestClientError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
