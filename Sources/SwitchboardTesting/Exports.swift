// The test fixtures (a server in-process, fake and stalling stores, blocking
// line and WebSocket clients) come with the load clients they build on.
@_exported import SwitchboardLoad
