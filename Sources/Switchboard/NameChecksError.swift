/// ICU's spoof checker could not be opened at start
/// (``SwitchboardCore/MessageLimits/prepareNameChecks()``). The server does
/// not start without it: it could not tell apart names that only look alike,
/// and a newcomer could take a name that reads as someone else's.
public struct NameChecksError: Error, CustomStringConvertible {
    public var description: String {
        "ICU's spoof checker (uspoof) could not be opened: names that only look alike could not be told apart"
    }
}
