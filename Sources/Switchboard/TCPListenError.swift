/// The raw TCP listener could not be started.
public struct TCPListenError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var underlying: any Error

    public var description: String { "cannot listen for TCP on \(host):\(port): \(underlying)" }
}
