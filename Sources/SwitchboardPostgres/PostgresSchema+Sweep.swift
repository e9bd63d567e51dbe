extension PostgresSchema {
    /// `switchboard_sweep(...)`, run by every node on its heartbeat.
    static let sweepStatements: [String] = [
        // Ends the claims of every node whose lease ran out, with a leave for
        // each user who is then on no live node. Returns how many leaves.
        """
        CREATE OR REPLACE FUNCTION switchboard_sweep(p_ts bigint) RETURNS int LANGUAGE plpgsql AS $$
        DECLARE
            next_id bigint;
            rooms text[];
            users text[];
            leaves int := 0;
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM switchboard_nodes WHERE lease_until <= now())
               AND NOT EXISTS (SELECT 1 FROM switchboard_presence p
                               WHERE NOT EXISTS (SELECT 1 FROM switchboard_nodes n WHERE n.id = p.node)) THEN
                RETURN 0;
            END IF;
            SELECT last_id INTO next_id FROM switchboard_counter FOR UPDATE;
            WITH gone AS (
                DELETE FROM switchboard_presence p
                WHERE NOT EXISTS (SELECT 1 FROM switchboard_nodes n WHERE n.id = p.node AND n.lease_until > now())
                RETURNING p.room, p.username)
            SELECT array_agg(room ORDER BY room, username), array_agg(username ORDER BY room, username)
                INTO rooms, users FROM (SELECT DISTINCT room, username FROM gone) AS distinct_gone;
            DELETE FROM switchboard_nodes WHERE lease_until <= now();
            FOR i IN 1 .. coalesce(array_length(rooms, 1), 0) LOOP
                CONTINUE WHEN EXISTS (SELECT 1 FROM switchboard_presence p JOIN switchboard_nodes n ON n.id = p.node
                                      WHERE p.room = rooms[i] AND p.username = users[i] AND n.lease_until > now());
                next_id := next_id + 1;
                leaves := leaves + 1;
                INSERT INTO switchboard_messages (id, room, username, text, kind, ts)
                    VALUES (next_id, rooms[i], users[i], users[i] || ' has left', 'leave', p_ts);
            END LOOP;
            IF leaves > 0 THEN
                UPDATE switchboard_counter SET last_id = next_id;
                PERFORM pg_notify('switchboard', ' ' || next_id);
            END IF;
            RETURN leaves;
        END $$
        """,
    ]
}
