import PostgresNIO

/// The tables and functions a node needs, created or brought up to date at
/// start-up under an advisory lock (so nodes starting together do not race).
///
/// - `switchboard_counter`: one row, the last id assigned. Every commit locks
///   it (`FOR UPDATE`) before assigning ids and holds it to its end, so ids
///   are assigned and committed in one order across every node, and the
///   committed ids are always a prefix: a reader at cursor N never meets a
///   smaller id later. Rolled-back commits give their ids back, so there are
///   no holes but deleted messages.
/// - `switchboard_messages`: the messages.
/// - `switchboard_nodes`: each running node, its lease and its counts.
/// - `switchboard_presence`: which node holds which user in which room.
/// - `switchboard_accounts`, `switchboard_bans`, `switchboard_revoked`,
///   `switchboard_keys`: identity, shared by every node.
/// - `switchboard_conversations`, `switchboard_members`: conversations and
///   their members, changed by the commit that stores each event; each
///   member's row keeps the conversation's last message and their unread
///   count (``unreadStatements``, `switchboard_mark_read(...)`).
/// - `switchboard_media`, `switchboard_media_chunks`, `switchboard_message_media`:
///   uploads' records, their bytes (1 MiB chunks, so that every node serves
///   every file), and which messages carry them (written by the commit).
/// - `switchboard_push_subscriptions`, `switchboard_push_jobs`: Web Push's
///   subscriptions and the queue of notifications owed.
/// - `switchboard_webhook_lease`, `switchboard_webhook_events`,
///   `switchboard_webhook_deliveries`: webhooks' lease and cursor, and each
///   receiver's queue.
/// - `switchboard_health`: the row `/healthz` writes while commits are refused.
/// - `switchboard_commit(...)`: one group commit, in one round trip.
/// - `switchboard_sweep(...)`: ends the presence of nodes whose lease ran out.
enum PostgresSchema {
    /// Bumped when the statements change; recorded in `switchboard_schema`.
    static let version = 13
    static let lockKey: Int64 = 0x5377_6974_6368  // "Switch"

    /// Every statement, in order; `statements[0]` makes the version table.
    /// (The media tables, ``mediaStatements``, come last: the commit
    /// function only names them when it runs.)
    static var statements: [String] { coreStatements + sweepStatements + actStatements + mediaStatements + pushStatements + webhookStatements
        + unreadStatements + [healthStatement] }

    /// `switchboard_health`: one row, which `/healthz` writes while commits
    /// are refused (``PostgresMessageStore/checkDurableWrite()``).
    static let healthStatement = """
        CREATE TABLE IF NOT EXISTS switchboard_health (one boolean PRIMARY KEY DEFAULT true CHECK (one), at bigint NOT NULL)
        """

    private static let coreStatements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS switchboard_schema (version int NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_counter (
            one boolean PRIMARY KEY DEFAULT true CHECK (one),
            last_id bigint NOT NULL)
        """,
        """
        INSERT INTO switchboard_counter (one, last_id) VALUES (true, 0) ON CONFLICT DO NOTHING
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_messages (
            id bigint PRIMARY KEY,
            room text NOT NULL,
            username text NOT NULL,
            text text NOT NULL,
            kind text NOT NULL,
            ts bigint NOT NULL)
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_messages_room_id ON switchboard_messages (room, id)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_nodes (
            id text PRIMARY KEY,
            address text NOT NULL,
            lease_until timestamptz NOT NULL,
            connections text NOT NULL DEFAULT '{}')
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_presence (
            node text NOT NULL,
            room text NOT NULL,
            username text NOT NULL,
            transport text NOT NULL,
            PRIMARY KEY (node, room, username))
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_presence_user ON switchboard_presence (room, username)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_accounts (
            username text PRIMARY KEY,
            user_key text NOT NULL UNIQUE,
            password_hash text NOT NULL,
            created bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_bans (user_key text PRIMARY KEY, until bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_revoked (key text PRIMARY KEY, expires bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_keys (name text PRIMARY KEY, value bytea NOT NULL)
        """,
        """
        ALTER TABLE switchboard_messages ADD COLUMN IF NOT EXISTS event text
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_conversations (
            room text PRIMARY KEY,
            title text NOT NULL,
            direct_key text UNIQUE,
            created_by text NOT NULL,
            created bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_members (
            room text NOT NULL,
            username text NOT NULL,
            user_key text NOT NULL,
            since_id bigint NOT NULL,
            read_id bigint NOT NULL,
            ordinal int NOT NULL DEFAULT 0,
            muted boolean NOT NULL DEFAULT false,
            PRIMARY KEY (room, user_key))
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_members_user ON switchboard_members (user_key)
        """,
        """
        DROP FUNCTION IF EXISTS switchboard_commit(text, bigint, text[], text[], text[], text[], text[])
        """,
        """
        DROP FUNCTION IF EXISTS switchboard_commit(text, bigint, text[], text[], text[], text[], text[], text[], text[])
        """,
        // One group commit. Joins and leaves are this node's presence claims:
        // the message is stored only for the user's first claim on a live
        // node (join) or when their last claim goes (leave). A conversation
        // event (`p_events`, its stored JSON) changes membership as
        // `p_effects` says, in the same transaction (and `p_media`, the
        // attachments' JSON, records which uploads it carries); a `created` one names
        // its room after its id, and a second direct conversation of a pair
        // is not stored. An act or a reply (`p_targets`, `p_reply_tos`; 0: none) changes its
        // message (`switchboard_apply_act`); one that changes nothing is not stored.
        // A user's client id already stored stores nothing: minus its message's id.
        // Returns one id per draft, 0 for one not stored.
        """
        CREATE OR REPLACE FUNCTION switchboard_commit(p_node text, p_ts bigint, p_rooms text[], p_users text[],
                                                      p_texts text[], p_kinds text[], p_transports text[],
                                                      p_events text[], p_effects text[], p_media text[],
                                                      p_reply_tos bigint[], p_targets bigint[], p_details text[],
                                                      p_client_ids text[])
        RETURNS bigint[] LANGUAGE plpgsql AS $$
        DECLARE
            next_id bigint;
            ids bigint[] := '{}';
            changed int;
            elsewhere boolean;
            v_room text;
            v_earlier bigint;
            fx jsonb;
        BEGIN
            SELECT last_id INTO next_id FROM switchboard_counter FOR UPDATE;
            FOR i IN 1 .. coalesce(array_length(p_rooms, 1), 0) LOOP
                v_room := p_rooms[i];
                fx := NULL;
                IF p_effects[i] <> '' THEN fx := p_effects[i]::jsonb; END IF;
                IF p_node <> '' AND p_kinds[i] IN ('join', 'leave') THEN
                    IF p_kinds[i] = 'join' THEN
                        INSERT INTO switchboard_presence (node, room, username, transport)
                            VALUES (p_node, p_rooms[i], p_users[i], p_transports[i]) ON CONFLICT DO NOTHING;
                    ELSE
                        DELETE FROM switchboard_presence WHERE node = p_node AND room = p_rooms[i] AND username = p_users[i];
                    END IF;
                    GET DIAGNOSTICS changed = ROW_COUNT;
                    SELECT EXISTS (SELECT 1 FROM switchboard_presence p JOIN switchboard_nodes n ON n.id = p.node
                                   WHERE p.room = p_rooms[i] AND p.username = p_users[i] AND p.node <> p_node
                                     AND n.lease_until > now()) INTO elsewhere;
                    IF changed = 0 OR elsewhere THEN
                        ids := ids || 0::bigint;
                        CONTINUE;
                    END IF;
                END IF;
                IF fx->>'type' = 'created' THEN
                    v_room := 'c.' || (next_id + 1);
                    INSERT INTO switchboard_conversations (room, title, direct_key, created_by, created)
                        VALUES (v_room, fx->>'title', fx->>'direct_key', fx->>'actor', p_ts) ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS changed = ROW_COUNT;
                    IF changed = 0 THEN
                        ids := ids || 0::bigint;
                        CONTINUE;
                    END IF;
                END IF;
                IF p_client_ids[i] <> '' THEN
                    SELECT id INTO v_earlier FROM switchboard_messages WHERE username = p_users[i] AND client_id = p_client_ids[i];
                    IF FOUND THEN
                        ids := ids || -v_earlier;
                        CONTINUE;
                    END IF;
                END IF;
                IF greatest(p_targets[i], p_reply_tos[i]) > 0
                   AND NOT switchboard_apply_act(greatest(p_targets[i], p_reply_tos[i]), v_room, p_users[i], p_texts[i], p_kinds[i],
                                                 p_ts, nullif(p_details[i], '')) THEN
                    ids := ids || 0::bigint;
                    CONTINUE;
                END IF;
                next_id := next_id + 1;
                INSERT INTO switchboard_messages (id, room, username, text, kind, ts, event, media, reply_to, target, detail, client_id)
                    VALUES (next_id, v_room, p_users[i], p_texts[i], p_kinds[i], p_ts, nullif(p_events[i], ''), nullif(p_media[i], ''),
                            nullif(p_reply_tos[i], 0), nullif(p_targets[i], 0), nullif(p_details[i], ''), nullif(p_client_ids[i], ''));
                IF p_media[i] <> '' THEN
                    INSERT INTO switchboard_message_media (media_id, message_id, room)
                        SELECT a->>'id', next_id, v_room FROM jsonb_array_elements(p_media[i]::jsonb) AS a ON CONFLICT DO NOTHING;
                    UPDATE switchboard_media SET carried = true
                        WHERE id IN (SELECT a->>'id' FROM jsonb_array_elements(p_media[i]::jsonb) AS a);
                END IF;
                IF fx->>'type' IN ('created', 'added') THEN
                    INSERT INTO switchboard_members (room, username, user_key, since_id, read_id, ordinal)
                        SELECT v_room, t.m->>'user', t.m->>'key', next_id, next_id, t.n - 1
                        FROM jsonb_array_elements(fx->'members') WITH ORDINALITY AS t(m, n)
                        ON CONFLICT DO NOTHING;
                ELSIF fx->>'type' = 'renamed' THEN
                    UPDATE switchboard_conversations SET title = fx->>'title' WHERE room = v_room;
                ELSIF fx->>'type' IN ('removed', 'left') THEN
                    DELETE FROM switchboard_members WHERE room = v_room AND user_key = fx->>'user_key';
                END IF;
                IF left(v_room, 2) = 'c.' AND p_kinds[i] NOT IN ('edit', 'reaction', 'delete') THEN
                    UPDATE switchboard_members SET last_id = next_id, unread = unread
                        + (p_kinds[i] = 'message' AND read_id < next_id AND username <> p_users[i]
                           AND user_key <> lower(p_users[i]))::int
                        WHERE room = v_room;
                END IF;
                ids := ids || next_id;
            END LOOP;
            UPDATE switchboard_counter SET last_id = next_id;
            PERFORM pg_notify('switchboard', p_node || ' ' || next_id);
            RETURN ids;
        END $$
        """,
    ]
}
