import Foundation
import NIOCore

/// The raw TCP listener could not be started.
public struct TCPListenError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var underlying: any Error

    /// The system's reason (`Address already in use`), not SwiftNIO's
    /// account of the call that failed (`bind(descriptor:ptr:bytes:): …`).
    public var description: String {
        let reason = (underlying as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(underlying)"
        return "cannot listen for TCP on \(host):\(port): \(reason)"
    }
}
