import Logging
import SwitchboardCore

/// What every WebSocket connection works with.
struct WebSocketServices: Sendable {
    let configuration: WebSocketConfiguration
    let bus: MessageBus
    let connections: ConnectionDirectory
    let access: AccessControl
    /// Typing and read notices to open sockets.
    let notices: NoticeBoard
    /// Every publish, reply and act goes through it (Core's rules; uploads too).
    let acts: MessageActService
    let logger: Logger
}
