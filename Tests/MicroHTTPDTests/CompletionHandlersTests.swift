import Synchronization
import Testing
@testable import MicroHTTPD

@Suite("An exchange's completion handlers")
struct CompletionHandlersTests {
    /// Last registered first, like `defer`, each once; the fields of the
    /// first two and the array of the rest alike. What is registered after
    /// the handlers were taken out (by a handler, as they run) waits for the
    /// next take and never changes the handlers being run.
    @Test func handlersRunLastRegisteredFirstOnceAndOneAddedMeanwhileWaits() {
        let ran = Mutex<[String]>([])
        var handlers = CompletionHandlers()
        for name in ["a", "b", "c", "d"] { handlers.append { _ in ran.withLock { $0.append(name) } } }
        let taken = handlers.take()
        handlers.append { _ in ran.withLock { $0.append("late") } }
        taken.run(.completed)
        #expect(ran.withLock { $0 } == ["d", "c", "b", "a"])
        handlers.take().run(.failed)
        handlers.take().run(.failed)
        #expect(ran.withLock { $0 } == ["d", "c", "b", "a", "late"])
    }
}
