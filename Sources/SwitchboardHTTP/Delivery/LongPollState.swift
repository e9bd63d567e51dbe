/// What a long poll does next, decided with no I/O from the time, whether
/// its user was kicked and whether the bus is closed: wait for news until
/// the deadline, then answer with whatever is there.
struct LongPollState: Equatable {
    /// The next step.
    enum Step: Equatable {
        /// Read after the cursor and park when nothing is new; schedule the
        /// deadline wake-up the first time.
        case waitForNews(scheduleDeadline: Bool)
        /// The deadline passed (or the server is stopping, or the client
        /// left): answer with what is there, maybe nothing.
        case answerNow
        /// An administrator kicked the user: answer with an error.
        case answerKicked
    }

    /// Monotonic nanoseconds after which the poll answers.
    let deadline: UInt64
    private var waiting = false

    init(deadline: UInt64) {
        self.deadline = deadline
    }

    /// Called when the request arrives and each time it is woken.
    /// `clientLeft`: the client closed its socket while the poll waited.
    mutating func next(now: UInt64, kicked: Bool, busClosed: Bool, clientLeft: Bool = false) -> Step {
        if kicked { return .answerKicked }
        if now >= deadline || busClosed || clientLeft { return .answerNow }
        defer { waiting = true }
        return .waitForNews(scheduleDeadline: !waiting)
    }
}
