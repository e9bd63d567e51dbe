import Synchronization
import Testing
@testable import NameSecurity

@Suite("Name keys remembered")
struct NameKeyMemoTests {
    /// Asked again, a name gets ICU's key, not another name's.
    @Test func aRememberedKeyIsTheNamesOwn() {
        let names = ["luke", "Luke", "luk\u{0435}", "leia", "rn", "m", "system", "syst\u{0435}m", "bench", "lukas"]
        for _ in 0..<2 {
            for name in names { #expect(NameSkeleton.key(name) == NameSkeleton.skeleton(name), "\(name)") }
        }
        #expect(NameSkeleton.key("rn") == NameSkeleton.key("m"))
        #expect(NameSkeleton.key("leia") != NameSkeleton.key("luke"))
    }

    /// Made ready at start (the server refuses to start otherwise), the
    /// checker is ICU's (`lukе` with a Cyrillic `е`, and `Iuke`, read as `luke`) and keeps no name.
    @Test func theChecksMadeReadyAtStartTellLookalikes() {
        #expect(NameSkeleton.prepare())
        // Not a count of the memo: other suites ask names at the same time.
        #expect(!NameSkeleton.shownMemo.keeps(NameSkeleton.preparedName) && !NameSkeleton.memo.keeps(NameSkeleton.preparedName))
        #expect(NameSkeleton.skeleton("luk\u{0435}") == NameSkeleton.skeleton("luke"))
        #expect(NameSkeleton.shownSkeleton("Iuke") == NameSkeleton.shownSkeleton("luke"))
    }

    /// A name asked again is not worked out again; a full memo starts over.
    @Test func aNameIsWorkedOutOnceAndTheMemoStaysBounded() {
        let memo = NameKeyMemo(capacity: 3)
        let calls = Mutex(0)
        let work: (String) -> String = { name in
            calls.withLock { $0 += 1 }
            return "key:" + name
        }
        #expect(memo.key("a", work) == "key:a")
        #expect(memo.key("a", work) == "key:a")
        #expect(calls.withLock { $0 } == 1)
        for name in ["b", "c", "d", "e"] { #expect(memo.key(name, work) == "key:" + name) }
        #expect(memo.count <= 3)
        #expect(memo.key("e", work) == "key:e")
        #expect(calls.withLock { $0 } == 5)
    }
}
