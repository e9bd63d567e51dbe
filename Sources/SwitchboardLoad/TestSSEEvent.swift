import Foundation
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#endif

/// One SSE event as a client parses it.
public struct TestSSEEvent: Equatable {
    public var id: String?
    public var event: String?
    public var data: String

    public init(id: String?, event: String?, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }
}
