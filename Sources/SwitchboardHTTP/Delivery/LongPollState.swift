/// What a long poll does next, decided with no I/O from the time, whether
/// its user was kicked and whether the bus is closed: wait for news until
/// the deadline, then answer with whatever is there.
///
/// A poll that has waited ``watchDelay`` has the hang-up watch armed (a
/// client that leaves is then noticed within moments): by the scheduler's
/// thread where it is parked, and by every park after that. One answered
/// before, as nearly every poll in a room that is talking, never arms it:
/// a wait costs no `epoll_ctl` of the watch's, no lock and no entry in its
/// table (docs/ARCHITECTURE.md, "A long poll is one object").
struct LongPollState: Equatable {
    /// How long a poll waits before its client's hang-up is watched (1 s).
    static let watchDelay: UInt64 = 1_000_000_000

    /// The next step.
    enum Step: Equatable {
        /// Read after the cursor and park when nothing is new. `wakeAt`: the
        /// monotonic time to be woken at (scheduled once for the watch,
        /// once for the deadline; nil: already scheduled). `watchHangup`:
        /// arm the hang-up watch while parked.
        case waitForNews(wakeAt: UInt64?, watchHangup: Bool)
        /// The deadline passed (or the server is stopping, or the client
        /// left): answer with what is there, maybe nothing.
        case answerNow
        /// An administrator kicked the user: answer with an error.
        case answerKicked
    }

    /// Monotonic nanoseconds after which the poll answers.
    let deadline: UInt64
    /// Monotonic nanoseconds after which a parked poll's client is watched.
    private let watchFrom: UInt64
    /// The wake-up scheduled last, if any.
    private var scheduled: UInt64?

    /// `arrived`: when the request came (monotonic nanoseconds).
    init(arrived: UInt64, deadline: UInt64) {
        self.deadline = deadline
        self.watchFrom = arrived + Self.watchDelay
    }

    /// Called when the request arrives and each time it is woken.
    /// `clientLeft`: the client closed its socket while the poll waited.
    mutating func next(now: UInt64, kicked: Bool, busClosed: Bool, clientLeft: Bool = false) -> Step {
        if kicked { return .answerKicked }
        if now >= deadline || busClosed || clientLeft { return .answerNow }
        let watching = now >= watchFrom
        // Woken at the watch's time (or first parked): the next wake-up.
        let wake = watching || watchFrom >= deadline ? deadline : watchFrom
        guard scheduled != wake else { return .waitForNews(wakeAt: nil, watchHangup: watching) }
        scheduled = wake
        return .waitForNews(wakeAt: wake, watchHangup: watching)
    }

    /// Whether the wake-up scheduled last is due at `now`. Asked after the
    /// poll parked: a wake-up that came while it was on its way to parking
    /// (after a wake that gave it nothing) found nothing to wake and was
    /// spent; without this the poll would wait past its deadline, or unwatched.
    func wakeIsDue(now: UInt64) -> Bool {
        scheduled.map { now >= $0 } ?? false
    }
}
