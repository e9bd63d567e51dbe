/// Why a SwiftNIO listener closed a connection as soon as it was accepted:
/// its address already holds its most connections (``SwitchboardCore/ConnectionsPerAddress``).
public struct AddressLimitRefusal: Error {
    public init() {}
}
