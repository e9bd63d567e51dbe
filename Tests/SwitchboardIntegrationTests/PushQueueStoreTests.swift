import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTesting
import Testing

/// The push queue on a real store (a SQLite file, SQLite in memory and, when
/// `Scripts/test.sh` started one, PostgreSQL): a message is queued for the
/// subscriptions of members who have not muted the room, and SQLite makes no
/// notification (nor a write) when none of the users keeps a subscription.
@Suite struct PushQueueStoreTests {
    @Test func aMessageIsQueuedOnlyForTheSubscriptionsOfMembersWhoHaveNotMutedIt() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let (name, store) = (each.name, each.store)
            let event = ConversationEvent(type: .created, actor: "leia", title: "rebels", members: ["leia", "luke", "Han", "chewie"])
            let room = try #require(try store.commit([event.draft(room: ConversationRoom.unnamed)], timestamp: 1)[0]).room
            for user in ["Han", "chewie"] {
                let subscription = PushSubscription(user: user, endpoint: "https://push.example/\(user)", p256dh: "k", auth: "a")
                #expect(try store.subscribe(subscription, limit: 5), "\(name)")
            }
            #expect(try store.setMuted(room: room, user: "chewie", muted: true), "\(name)")

            let content = PushNotification(payload: Array(#"{"text":"hi"}"#.utf8), topic: "topic", ttl: 60)
            var made = 0
            let notification = { () -> PushNotification in made += 1; return content }
            #expect(try store.enqueuePush(room: room, messageID: 2, users: ["luke"], now: 10, notification: notification) == 0,
                    "\(name): luke keeps no subscription")
            if name.hasPrefix("SQLite") {
                #expect(made == 0, "\(name): no notification made when none of the users is subscribed")
            }
            #expect(try store.enqueuePush(room: room, messageID: 3, users: ["chewie"], now: 10, notification: notification) == 0,
                    "\(name): chewie muted the room")
            #expect(try store.enqueuePush(room: "c.999", messageID: 4, users: ["han"], now: 10, notification: notification) == 0,
                    "\(name): han is no member of that room")
            made = 0
            #expect(try store.enqueuePush(room: room, messageID: 5, users: ["luke", "han", "chewie"], now: 10,
                                          notification: notification) == 1, "\(name): han's one subscription, his name in any case")
            #expect(made == 1, "\(name): the notification is made once")
            #expect(try store.pushQueue().pending == 1, "\(name)")
            let jobs = try store.claimDuePushes(now: 10, claimUntil: 100, limit: 10)
            #expect(jobs.map(\.subscription.endpoint) == ["https://push.example/Han"], "\(name)")
            #expect(jobs.first.map { PushNotification(payload: $0.payload, topic: $0.topic, ttl: $0.ttl) } == content,
                    "\(name): the job carries what the notification said")
        }
    }

    /// What SQLite keeps in memory of who is subscribed follows every change:
    /// an endpoint changing hands, an unsubscribe, a push service's "gone",
    /// and a reopened file.
    @Test func theQueueFollowsSubscriptionsAsTheyChange() throws {
        for each in try TestStore.every() {
            let (name, path) = (each.name, each.path)
            defer { if let path { TestStore.remove(path) } }
            var store = each.store
            let event = ConversationEvent(type: .created, actor: "leia", title: "rebels", members: ["leia", "luke", "han"])
            let room = try #require(try store.commit([event.draft(room: ConversationRoom.unnamed)], timestamp: 1)[0]).room
            let content = PushNotification(payload: [1], topic: "t", ttl: 60)
            func queued(_ users: [String]) throws -> Int {
                try store.enqueuePush(room: room, messageID: 2, users: users, now: 10) { content }
            }
            let browser = PushSubscription(user: "han", endpoint: "https://push.example/b", p256dh: "k", auth: "a")
            #expect(try store.subscribe(browser, limit: 5))
            #expect(try queued(["han"]) == 1 && queued(["luke"]) == 0, "\(name)")
            // The browser changes hands: han keeps none now, luke one.
            #expect(try store.subscribe(PushSubscription(user: "Luke", endpoint: browser.endpoint, p256dh: "k2", auth: "a2"), limit: 5))
            #expect(try queued(["han"]) == 0 && queued(["luke"]) == 1, "\(name)")
            #expect(try store.unsubscribe(user: "luke", endpoint: browser.endpoint))
            #expect(try queued(["luke"]) == 0, "\(name): unsubscribed")
            #expect(try store.subscribe(browser, limit: 5))
            try store.dropSubscription(endpoint: browser.endpoint)
            #expect(try queued(["han"]) == 0, "\(name): the push service said it is gone")
            #expect(try store.subscribe(browser, limit: 5))
            if let path {
                try store.close()
                store = try SQLiteMessageStore(path: path)
                #expect(try queued(["han"]) == 1, "\(name): reopened, the subscription is known")
            }
            try store.close()
        }
    }
}
