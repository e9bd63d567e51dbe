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
    /// Uploads a publish may carry; nil: none.
    let media: MediaService?
    let logger: Logger
}
