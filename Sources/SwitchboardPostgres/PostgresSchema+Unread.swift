extension PostgresSchema {
    /// A conversation's figures kept by each commit (`switchboard_commit`)
    /// in each member's row, so that the list and `/api/me` read one row per
    /// conversation whatever the history: `last_id`, the conversation's last
    /// message that is not an act, and `unread`, the member's count of other
    /// people's `message`s after their read marker. Counted
    /// here once, when the columns are added; the tables are locked from the
    /// `ALTER` to the end, so a commit on another node waits and counts after.
    /// A message is a member's own when it is spelled as their name or
    /// lower-cases to their key.
    ///
    /// `switchboard_mark_read(room, key, id)`: moves a member's marker
    /// forward and takes the messages it passed out of their count (none
    /// left when it reaches `last_id`), the marker and count under the
    /// counter's lock (`FOR SHARE`), so no commit is half counted (a marker
    /// that would not move is answered without it); returns the marker, or
    /// null for no such member.
    static let unreadStatements: [String] = [
        """
        DO $$ BEGIN
            IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                           AND table_name = 'switchboard_members' AND column_name = 'unread') THEN
                ALTER TABLE switchboard_members ADD COLUMN last_id bigint, ADD COLUMN unread bigint NOT NULL DEFAULT 0;
                UPDATE switchboard_members m SET last_id = (SELECT max(x.id) FROM switchboard_messages x
                    WHERE x.room = m.room AND x.kind NOT IN ('edit', 'reaction', 'delete')),
                    unread = (SELECT count(*) FROM switchboard_messages x
                    WHERE x.room = m.room AND x.id > m.read_id AND x.kind = 'message'
                      AND x.username <> m.username AND lower(x.username) <> m.user_key);
            END IF;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION switchboard_mark_read(p_room text, p_key text, p_id bigint)
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v_user text;
            v_read bigint;
            v_unread bigint;
            v_last bigint;
        BEGIN
            -- A marker that would not move answers without the counter's lock (commits take it).
            SELECT read_id INTO v_read FROM switchboard_members WHERE room = p_room AND user_key = p_key;
            IF NOT FOUND THEN RETURN NULL; END IF;
            IF p_id <= v_read THEN RETURN v_read; END IF;
            PERFORM 1 FROM switchboard_counter FOR SHARE;
            SELECT username, read_id, unread, last_id INTO v_user, v_read, v_unread, v_last
                FROM switchboard_members WHERE room = p_room AND user_key = p_key FOR UPDATE;
            IF NOT FOUND THEN RETURN NULL; END IF;
            IF p_id <= v_read THEN RETURN v_read; END IF;
            IF v_last IS NULL OR p_id >= v_last THEN
                v_unread := 0;
            ELSE
                SELECT greatest(0, v_unread - count(*)) INTO v_unread FROM switchboard_messages
                    WHERE room = p_room AND id > v_read AND id <= p_id AND kind = 'message'
                      AND username <> v_user AND lower(username) <> p_key;
            END IF;
            UPDATE switchboard_members SET read_id = p_id, unread = v_unread WHERE room = p_room AND user_key = p_key;
            RETURN p_id;
        END $$
        """,
    ]
}
