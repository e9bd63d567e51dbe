import GRDB

/// The database's schema, one migration per step, applied at open, and its settings.
extension SQLiteMessageStore {
    /// Throws ``NewerDatabase`` when a newer version has migrated the
    /// database: it is not served (what this version writes could break
    /// what the newer one expects when it runs again).
    static func refuseIfNewer(_ writer: any DatabaseWriter) throws {
        let unknown = try writer.read { db in
            try migrator.appliedIdentifiers(db).subtracting(migrator.appliedMigrations(db)).sorted()
        }
        if !unknown.isEmpty { throw NewerDatabase(unknownMigrations: unknown) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: messages") { db in
            try db.execute(sql: """
                CREATE TABLE message (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room TEXT NOT NULL,
                    user TEXT NOT NULL,
                    text TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    ts INTEGER NOT NULL
                );
                CREATE INDEX message_room_id ON message(room, id);
                """)
        }
        migrator.registerMigration("v2: accounts, bans, revocations, signing key") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    user TEXT NOT NULL PRIMARY KEY,
                    user_key TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    created INTEGER NOT NULL
                );
                CREATE TABLE ban (user_key TEXT NOT NULL PRIMARY KEY, until INTEGER NOT NULL);
                CREATE TABLE revoked_token (key TEXT NOT NULL PRIMARY KEY, expires INTEGER NOT NULL);
                CREATE TABLE server_key (name TEXT NOT NULL PRIMARY KEY, value BLOB NOT NULL);
                """)
        }
        migrator.registerMigration("v3: conversations, members, events") { db in
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN event TEXT;
                CREATE TABLE conversation (
                    room TEXT NOT NULL PRIMARY KEY,
                    title TEXT NOT NULL,
                    direct_key TEXT UNIQUE,
                    created_by TEXT NOT NULL,
                    created INTEGER NOT NULL
                );
                CREATE TABLE conversation_member (
                    room TEXT NOT NULL,
                    user TEXT NOT NULL,
                    user_key TEXT NOT NULL,
                    since_id INTEGER NOT NULL,
                    read_id INTEGER NOT NULL,
                    ordinal INTEGER NOT NULL DEFAULT 0,
                    muted INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (room, user_key)
                );
                CREATE INDEX conversation_member_user ON conversation_member(user_key);
                """)
        }
        migrator.registerMigration("v4: media") { db in
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN media TEXT;
                CREATE TABLE media (
                    id TEXT NOT NULL PRIMARY KEY,
                    owner TEXT NOT NULL,
                    owner_key TEXT NOT NULL,
                    attachment TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    thumbnail_type TEXT,
                    uploaded_at INTEGER NOT NULL,
                    carried INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX media_owner ON media(owner_key);
                CREATE TABLE message_media (
                    media_id TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    room TEXT NOT NULL,
                    PRIMARY KEY (media_id, message_id)
                );
                CREATE INDEX message_media_message ON message_media(message_id);
                """)
        }
        migrator.registerMigration("v5: replies and acts") { db in
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN reply_to INTEGER;
                ALTER TABLE message ADD COLUMN target INTEGER;
                ALTER TABLE message ADD COLUMN detail TEXT;
                ALTER TABLE message ADD COLUMN state TEXT;
                CREATE INDEX message_reply_to ON message(reply_to, id) WHERE reply_to IS NOT NULL;
                CREATE INDEX message_target ON message(target) WHERE target IS NOT NULL;
                """)
        }
        migrator.registerMigration("v6: client ids") { db in
            // One message per user and client id, whatever the node or the moment: the commit looks it up first.
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN client_id TEXT;
                CREATE UNIQUE INDEX message_client_id ON message(user, client_id) WHERE client_id IS NOT NULL;
                """)
        }
        migrator.registerMigration("v7: push subscriptions and their queue") { db in
            try db.execute(sql: """
                CREATE TABLE push_subscription (
                    endpoint TEXT NOT NULL PRIMARY KEY,
                    user TEXT NOT NULL,
                    user_key TEXT NOT NULL,
                    p256dh TEXT NOT NULL,
                    auth TEXT NOT NULL,
                    created INTEGER NOT NULL
                );
                CREATE INDEX push_subscription_user ON push_subscription(user_key);
                CREATE TABLE push_job (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    endpoint TEXT NOT NULL,
                    room TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    payload BLOB NOT NULL,
                    topic TEXT NOT NULL,
                    ttl INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    due INTEGER NOT NULL,
                    created INTEGER NOT NULL
                );
                CREATE INDEX push_job_due ON push_job(due, id);
                CREATE INDEX push_job_endpoint ON push_job(endpoint);
                CREATE INDEX push_job_message ON push_job(message_id);
                """)
        }
        migrator.registerMigration("v8: webhooks' lease, cursor and queues") { db in
            try db.execute(sql: """
                CREATE TABLE webhook_lease (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    node TEXT NOT NULL,
                    until INTEGER NOT NULL,
                    cursor INTEGER NOT NULL
                );
                CREATE TABLE webhook_event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    type TEXT NOT NULL,
                    key TEXT NOT NULL,
                    ts INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    message INTEGER
                );
                CREATE INDEX webhook_event_message ON webhook_event(message);
                CREATE TABLE webhook_delivery (
                    target TEXT NOT NULL,
                    event INTEGER NOT NULL,
                    key TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    due INTEGER NOT NULL,
                    PRIMARY KEY (target, event)
                ) WITHOUT ROWID;
                CREATE INDEX webhook_delivery_due ON webhook_delivery(target, due);
                CREATE INDEX webhook_delivery_event ON webhook_delivery(event);
                """)
        }
        migrator.registerMigration("v9: conversations' last message and unread counts") { db in
            // Kept by each commit from now on (``ConversationCounts``), counted once here.
            try db.execute(sql: """
                ALTER TABLE conversation_member ADD COLUMN last_id INTEGER;
                ALTER TABLE conversation_member ADD COLUMN unread INTEGER NOT NULL DEFAULT 0;
                UPDATE conversation_member SET last_id = (SELECT MAX(id) FROM message x
                    WHERE x.room = conversation_member.room AND x.kind NOT IN ('edit', 'reaction', 'delete'));
                UPDATE conversation_member SET unread = (SELECT COUNT(*) FROM message x
                    WHERE x.room = conversation_member.room AND x.id > conversation_member.read_id AND x.kind = 'message'
                      AND x.user <> conversation_member.user AND lower(x.user) <> conversation_member.user_key);
                """)
        }
        migrator.registerMigration("v10: an upload's carriers room by room") { db in
            try db.execute(sql: "CREATE INDEX message_media_room ON message_media(media_id, room, message_id)")
        }
        migrator.registerMigration("v11: the row /healthz writes while commits are refused") { db in
            try db.execute(sql: "CREATE TABLE health_write (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)")
        }
        return migrator
    }

    /// The writing connection's `PRAGMA synchronous` (2 is `FULL`: every commit synced).
    func synchronousSetting() throws -> Int {
        try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }
}
