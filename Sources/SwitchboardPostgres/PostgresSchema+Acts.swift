extension PostgresSchema {
    /// `switchboard_apply_act(...)`: in the commit's transaction, changes
    /// the message an act or a reply names as `MessageActs.apply` does in
    /// Swift (the SQLite store and every node's ring use that one), with
    /// the message's `state` as `jsonb` (`{"edited","deleted","reactions",
    /// "replies"}`). False, and nothing changed, when the act changes
    /// nothing: no such message in the room, an act or server message, one
    /// unsent, or a reaction that already stood so. The row is locked
    /// (`FOR UPDATE`) behind the counter's lock, so two nodes' reactions
    /// are decided one after the other. Before it: the columns acts use (a
    /// reply's `reply_to`, an act's `target`, the `detail` and `state`
    /// JSON), and the commit function of schema 4 dropped (schema 5's
    /// takes the replies', targets' and details' arrays too).
    static let actStatements: [String] = [
        """
        DROP FUNCTION IF EXISTS switchboard_commit(text, bigint, text[], text[], text[], text[], text[], text[], text[], text[],
                                                   bigint[], bigint[], text[])
        """,
        """
        ALTER TABLE switchboard_messages ADD COLUMN IF NOT EXISTS client_id text
        """,
        """
        CREATE UNIQUE INDEX IF NOT EXISTS switchboard_messages_client_id ON switchboard_messages (username, client_id)
            WHERE client_id IS NOT NULL
        """,
        """
        DROP FUNCTION IF EXISTS switchboard_commit(text, bigint, text[], text[], text[], text[], text[], text[], text[], text[])
        """,
        """
        ALTER TABLE switchboard_messages ADD COLUMN IF NOT EXISTS reply_to bigint,
            ADD COLUMN IF NOT EXISTS target bigint, ADD COLUMN IF NOT EXISTS detail text, ADD COLUMN IF NOT EXISTS state text
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_messages_reply_to ON switchboard_messages (reply_to, id) WHERE reply_to IS NOT NULL
        """,
        """
        CREATE INDEX IF NOT EXISTS switchboard_messages_target ON switchboard_messages (target) WHERE target IS NOT NULL
        """,
        """
        CREATE OR REPLACE FUNCTION switchboard_apply_act(p_target bigint, p_room text, p_user text, p_text text, p_kind text,
                                                         p_ts bigint, p_detail text)
        RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            t_room text;
            t_kind text;
            t_state jsonb;
            d jsonb;
            v_emoji text;
            v_on boolean;
            v_users jsonb;
        BEGIN
            SELECT room, kind, coalesce(state::jsonb, '{}'::jsonb) INTO t_room, t_kind, t_state
                FROM switchboard_messages WHERE id = p_target FOR UPDATE;
            IF NOT FOUND OR t_room <> p_room OR t_kind <> 'message' OR coalesce((t_state->>'deleted')::boolean, false) THEN
                RETURN false;
            END IF;
            IF p_kind = 'message' THEN
                t_state := jsonb_set(t_state, '{replies}', to_jsonb(coalesce((t_state->>'replies')::int, 0) + 1));
                UPDATE switchboard_messages SET state = t_state::text WHERE id = p_target;
            ELSIF p_kind = 'edit' THEN
                t_state := jsonb_set(t_state, '{edited}', to_jsonb(p_ts));
                UPDATE switchboard_messages SET text = p_text, state = t_state::text WHERE id = p_target;
            ELSIF p_kind = 'delete' THEN
                UPDATE switchboard_messages SET text = '', media = NULL, reply_to = NULL, detail = NULL,
                    state = '{"deleted":true}' WHERE id = p_target;
                DELETE FROM switchboard_message_media WHERE message_id = p_target;
                UPDATE switchboard_messages SET text = '' WHERE target = p_target AND kind = 'edit';
            ELSIF p_kind = 'reaction' THEN
                d := coalesce(p_detail::jsonb, '{}'::jsonb);
                v_emoji := d->>'emoji';
                v_on := coalesce((d->>'on')::boolean, true);
                IF v_emoji IS NULL THEN RETURN false; END IF;
                v_users := coalesce(t_state->'reactions'->v_emoji, '[]'::jsonb);
                IF (v_users ? p_user) = v_on THEN RETURN false; END IF;
                -- Reactions.mostByOneUser (20): no more of one user's on one message.
                IF v_on AND (SELECT count(*) FROM jsonb_each(coalesce(t_state->'reactions', '{}'::jsonb)) AS r(emoji, users)
                             WHERE r.users ? p_user) >= 20 THEN
                    RETURN false;
                END IF;
                IF v_on THEN
                    v_users := v_users || to_jsonb(p_user);
                ELSE
                    SELECT coalesce(jsonb_agg(u.value ORDER BY u.n), '[]'::jsonb) INTO v_users
                        FROM jsonb_array_elements(v_users) WITH ORDINALITY AS u(value, n) WHERE u.value <> to_jsonb(p_user);
                END IF;
                IF NOT t_state ? 'reactions' THEN t_state := jsonb_set(t_state, '{reactions}', '{}'::jsonb); END IF;
                IF jsonb_array_length(v_users) = 0 THEN
                    t_state := jsonb_set(t_state, '{reactions}', (t_state->'reactions') - v_emoji);
                ELSE
                    t_state := jsonb_set(t_state, ARRAY['reactions', v_emoji], v_users);
                END IF;
                IF t_state->'reactions' = '{}'::jsonb THEN t_state := t_state - 'reactions'; END IF;
                UPDATE switchboard_messages SET state = nullif(t_state::text, '{}') WHERE id = p_target;
            ELSE
                RETURN false;
            END IF;
            RETURN true;
        END $$
        """,
    ]
}
