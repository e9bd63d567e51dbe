extension PostgresSchema {
    /// Web Push: subscriptions, and the queue of notifications owed, shared
    /// by every node; a node claims what is due with `FOR UPDATE SKIP
    /// LOCKED`, so each notification is sent by one node.
    static let pushStatements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS switchboard_push_subscriptions (
            endpoint text PRIMARY KEY,
            username text NOT NULL,
            user_key text NOT NULL,
            p256dh text NOT NULL,
            auth text NOT NULL,
            created bigint NOT NULL)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_push_subscriptions_user ON switchboard_push_subscriptions (user_key)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_push_jobs (
            id bigserial PRIMARY KEY,
            endpoint text NOT NULL,
            room text NOT NULL,
            message_id bigint NOT NULL,
            payload bytea NOT NULL,
            topic text NOT NULL,
            ttl int NOT NULL,
            attempts int NOT NULL DEFAULT 0,
            due bigint NOT NULL,
            created bigint NOT NULL)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_push_jobs_due ON switchboard_push_jobs (due, id)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_push_jobs_endpoint ON switchboard_push_jobs (endpoint)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_push_jobs_message ON switchboard_push_jobs (message_id)
        """,
    ]
}
