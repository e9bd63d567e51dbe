import Logging
import SwitchboardCore

/// What every WebSocket connection works with.
struct WebSocketServices: Sendable {
    let configuration: WebSocketConfiguration
    let bus: MessageBus
    let connections: ConnectionDirectory
    let access: AccessControl
    let logger: Logger
}
