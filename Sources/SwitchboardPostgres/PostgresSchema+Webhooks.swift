extension PostgresSchema {
    /// Webhooks: the lease one node delivers under (with the log's cursor),
    /// the events, and a row per receiver that still owes each.
    static let webhookStatements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS switchboard_webhook_lease (
            id int PRIMARY KEY CHECK (id = 1),
            node text NOT NULL,
            until bigint NOT NULL,
            cursor bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_webhook_events (
            id bigserial PRIMARY KEY,
            type text NOT NULL,
            key text NOT NULL,
            ts bigint NOT NULL,
            data text NOT NULL,
            message bigint)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_webhook_events_message ON switchboard_webhook_events (message)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_webhook_deliveries (
            target text NOT NULL,
            event bigint NOT NULL,
            key text NOT NULL,
            attempts int NOT NULL DEFAULT 0,
            due bigint NOT NULL,
            PRIMARY KEY (target, event))
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_webhook_deliveries_due ON switchboard_webhook_deliveries (target, due)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_webhook_deliveries_event ON switchboard_webhook_deliveries (event)
        """,
    ]
}
