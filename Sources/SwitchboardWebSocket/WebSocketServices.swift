import Dispatch
import Logging
import SwitchboardCore

/// What every WebSocket connection works with.
struct WebSocketServices: Sendable {
    let configuration: WebSocketConfiguration
    let bus: MessageBus
    let connections: ConnectionDirectory
    /// Every connection's store work, so that shutdown can wait for it.
    let storeWork: DispatchGroup
    let logger: Logger
}
