extension PostgresSchema {
    /// Uploads: their records, their bytes in 1 MiB chunks (so that every
    /// node serves every file; `stored_at` lets the sweep find chunks no
    /// record names), which messages carry them (written by
    /// `switchboard_commit`), and the message's own `media` column.
    static let mediaStatements: [String] = [
        """
        ALTER TABLE switchboard_messages ADD COLUMN IF NOT EXISTS media text
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_media (
            id text PRIMARY KEY,
            owner text NOT NULL,
            owner_key text NOT NULL,
            attachment text NOT NULL,
            size bigint NOT NULL,
            thumbnail_type text,
            uploaded_at bigint NOT NULL,
            carried boolean NOT NULL DEFAULT false
        )
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_media_owner ON switchboard_media (owner_key)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_media_chunks (
            media_id text NOT NULL,
            variant text NOT NULL,
            seq int NOT NULL,
            data bytea NOT NULL,
            stored_at bigint NOT NULL DEFAULT (extract(epoch FROM now()) * 1000)::bigint,
            PRIMARY KEY (media_id, variant, seq)
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_message_media (
            media_id text NOT NULL,
            message_id bigint NOT NULL,
            room text NOT NULL,
            PRIMARY KEY (media_id, message_id)
        )
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_message_media_message ON switchboard_message_media (message_id)
        """,
        // An upload's carriers room by room (`firstCarrier(of:after:)`), one lookup a room.
        """
        CREATE INDEX IF NOT EXISTS switchboard_message_media_room ON switchboard_message_media (media_id, room, message_id)
        """,
    ]
}
