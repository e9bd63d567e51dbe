#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MicroHTTPD
import SwitchboardCore

/// libmicrohttpd's connections held to Core's limit per address: its
/// accept policy asks, its connection notices count.
struct AddressAdmission: ConnectionAdmission {
    let connections: ConnectionsPerAddress

    func admits(_ address: UnsafePointer<sockaddr>) -> Bool {
        ConnectionSource(address).map(connections.admits) ?? true
    }

    func opened(_ address: UnsafePointer<sockaddr>) {
        ConnectionSource(address).map(connections.opened)
    }

    func closed(_ address: UnsafePointer<sockaddr>) {
        ConnectionSource(address).map(connections.closed)
    }
}
