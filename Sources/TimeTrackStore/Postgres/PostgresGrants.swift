import Foundation
import TimeTrackCore

/// `store grant`: the roles of `Access` enforced by the PostgreSQL server itself, so that a
/// person who connects with `psql` instead of the tool has no more rights than the tool gives.
///
/// Five group roles (NOLOGIN; a person's or cron's login role is made a member by `operator
/// add|role` on this store):
/// - `timetrack_admin`: reads and writes the tables, and grants the other groups;
/// - `timetrack_importer`: writes items, runs and caches, for every school;
/// - `timetrack_staff`: reads and decides posts, absence reports and tickets of its operator's
///   schools only, and reads what is published (row-level security on every table that holds an
///   item's content);
/// - `timetrack_viewer`: reads published items of the exported kinds;
/// - `timetrack_app`: reads the `published_*` views and nothing else.
///
/// Nobody but the tables' owner writes `operators`: admins change operators through the
/// SECURITY DEFINER function `timetrack_operator_set`, which checks that its caller is an
/// active admin. Nobody may change or delete audit entries (the trigger); an entry is appended
/// only in the caller's own name, after the log's last entry (a row-level check; the chain's
/// links are checked by `audit verify`, and its head by anchors).
public enum PostgresGrants {
    /// The group roles, by operator role.
    public static func group(_ role: Operator.Role) -> String { "timetrack_\(role.rawValue)" }
    public static let app = "timetrack_app"

    /// Kinds by who may decide them, from the kinds table.
    static func kinds(_ include: (ItemKind) -> Bool) -> String {
        ItemKind.allCases.filter(include).map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }

    /// Tables keyed by `item_seq` that hold an item's content or state.
    static let contentTables = ["revisions", "field_locks", "item_memo"] + Projection.kindTables
    /// Tables an import writes besides the items'.
    static let importTables = ["import_runs", "source_state", "fetch_cache", "page_memo"]
    /// Tables of settings admins manage.
    static let settingTables = ["places", "place_names", "courses"]

    /// The script: idempotent (run it again after an upgrade), all or nothing.
    static var script: String {
        let staffKinds = kinds { $0.traits.review != .importedContent }
        let publicKinds = kinds { $0.traits.review == .importedContent }
        let exported = kinds { $0.traits.exported }
        let groups = Operator.Role.allCases.map(group) + [app]
        let everyone = groups.joined(separator: ", ")
        let tables = ["items"] + contentTables + importTables + settingTables + ["operators", "audit", "timetrack_schema"]
        let views = Schema.publishedViews
        var sql = ["BEGIN"]
        for role in groups {
            sql.append("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(role)') THEN CREATE ROLE \(role) NOLOGIN; END IF; END $$")
        }
        sql.append("GRANT \(groups.filter { $0 != group(.admin) }.joined(separator: ", ")) TO \(group(.admin)) WITH ADMIN OPTION")
        sql.append("REVOKE ALL ON \(tables.joined(separator: ", ")), \(views.joined(separator: ", ")) FROM PUBLIC, \(everyone)")
        sql.append("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, \(everyone)")
        // Who reads what (rows further limited below).
        sql.append("GRANT SELECT ON \(views.joined(separator: ", ")) TO \(everyone)")
        sql.append("GRANT SELECT ON operators, timetrack_schema, places, place_names, courses TO \(groups.filter { $0 != app }.joined(separator: ", "))")
        sql.append(
            "GRANT SELECT ON items, \(contentTables.joined(separator: ", ")) TO \(group(.admin)), \(group(.importer)), \(group(.staff)), \(group(.viewer))")
        sql.append("GRANT SELECT ON \(importTables.joined(separator: ", ")) TO \(group(.admin)), \(group(.importer)), \(group(.staff)), \(group(.viewer))")
        // The log is read by admins only; the others learn its head (to append after it) from
        // `timetrack_audit_head()`.
        sql.append("GRANT SELECT ON audit TO \(group(.admin))")
        // Who writes what.
        sql.append("GRANT INSERT ON audit TO \(group(.admin)), \(group(.importer)), \(group(.staff))")
        sql.append("GRANT INSERT, UPDATE ON items, \(contentTables.joined(separator: ", ")) TO \(group(.admin)), \(group(.importer)), \(group(.staff))")
        sql.append("GRANT DELETE ON field_locks, item_memo TO \(group(.admin)), \(group(.importer)), \(group(.staff))")
        sql.append("GRANT INSERT, UPDATE, DELETE ON \(importTables.joined(separator: ", ")) TO \(group(.admin)), \(group(.importer))")
        sql.append("GRANT INSERT, UPDATE, DELETE ON \(settingTables.joined(separator: ", ")) TO \(group(.admin))")
        sql.append("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(group(.admin)), \(group(.importer)), \(group(.staff))")
        // Who the caller is, for the row checks: the operator whose login is the session's role.
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_me() RETURNS operators LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
                SELECT * FROM operators WHERE login = session_user AND active = 1 $$
            """)
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_covers(school text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
                SELECT coalesce((SELECT CASE WHEN o.schools IS NULL OR o.schools IN ('', '[]') THEN true
                    ELSE school IS NOT NULL AND school IN (SELECT json_array_elements_text(o.schools::json)) END
                    FROM operators o WHERE o.login = session_user AND o.active = 1), false) $$
            """)
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_audit_head() RETURNS TABLE (id bigint, hash text) LANGUAGE sql STABLE SECURITY DEFINER SET\
             search_path = public AS $$
                SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1 $$
            """)
        // Rows: staff see their schools' private items and published public ones, decide their
        // schools' posts, absences and tickets; viewers see published exported items. `p` is the
        // items row's prefix: "" on items, "i." in the content tables' check.
        // A staff member with the alerts right reads and decides the alerts of their schools.
        func alertsRight(_ p: String) -> String { "(\(p)kind = 'alert' AND (timetrack_me()).alerts = 1 AND timetrack_covers(\(p)school))" }
        func staffSees(_ p: String) -> String {
            "((\(p)kind IN (\(staffKinds)) AND timetrack_covers(\(p)school)) OR (\(p)kind IN (\(publicKinds)) AND \(p)status = 'published' AND"
                + " (\(p)school IS NULL OR timetrack_covers(\(p)school))) OR \(alertsRight(p)))"
        }
        func staffDecides(_ p: String) -> String { "((\(p)kind IN (\(staffKinds)) AND timetrack_covers(\(p)school)) OR \(alertsRight(p)))" }
        func viewerSees(_ p: String) -> String { "(\(p)kind IN (\(exported)) AND \(p)status = 'published')" }
        sql.append("ALTER TABLE items ENABLE ROW LEVEL SECURITY")
        sql += policies(on: "items", staffSees: staffSees(""), staffDecides: staffDecides(""), viewerSees: viewerSees(""))
        for table in contentTables {
            func item(_ condition: String) -> String { "(EXISTS (SELECT 1 FROM items i WHERE i.seq = \(table).item_seq AND \(condition)))" }
            sql.append("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
            sql += policies(on: table, staffSees: item(staffSees("i.")), staffDecides: item(staffDecides("i.")), viewerSees: item(viewerSees("i.")))
        }
        // The log: appended in one's own name, after its end; read whole by admins only.
        sql.append("ALTER TABLE audit ENABLE ROW LEVEL SECURITY")
        sql.append("DROP POLICY IF EXISTS audit_read ON audit")
        sql.append("CREATE POLICY audit_read ON audit FOR SELECT TO \(everyone) USING (true)")
        sql.append("DROP POLICY IF EXISTS audit_append ON audit")
        sql.append(
            """
            CREATE POLICY audit_append ON audit FOR INSERT TO \(everyone) WITH CHECK (
                (operator = (timetrack_me()).name
                    OR ((timetrack_me()).role = 'admin' AND right(operator, length((timetrack_me()).name) + 5) = ' (by ' || (timetrack_me()).name || ')'))
                AND id > coalesce((SELECT h.id FROM timetrack_audit_head() h), 0))
            """)
        sql += decisionGuard
        // Operators: written by the owner, or by an active admin through this function.
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_operator_set(p_name text, p_role text, p_login text, p_schools text, p_active integer, p_created text)
            RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM operators) AND NOT EXISTS (SELECT 1 FROM operators WHERE login = session_user AND active = 1 AND role = 'admin') THEN
                    RAISE EXCEPTION 'only an active admin may change operators' USING ERRCODE = 'insufficient_privilege';
                END IF;
                INSERT INTO operators (name, role, created_at, login, schools, active) VALUES (p_name, p_role, p_created, p_login, p_schools, p_active)
                ON CONFLICT (name) DO UPDATE SET role = excluded.role, login = excluded.login, schools = excluded.schools, active = excluded.active;
            END $$
            """)
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_operator_alerts(p_name text, p_alerts integer)
            RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM operators WHERE login = session_user AND active = 1 AND role = 'admin') THEN
                    RAISE EXCEPTION 'only an active admin may change operators' USING ERRCODE = 'insufficient_privilege';
                END IF;
                UPDATE operators SET alerts = p_alerts WHERE lower(name) = lower(p_name);
            END $$
            """)
        sql.append("REVOKE ALL ON FUNCTION timetrack_operator_alerts(text, integer) FROM PUBLIC")
        sql.append("GRANT EXECUTE ON FUNCTION timetrack_operator_alerts(text, integer) TO \(group(.admin))")
        sql.append("REVOKE ALL ON FUNCTION timetrack_operator_set(text, text, text, text, integer, text) FROM PUBLIC")
        sql.append("GRANT EXECUTE ON FUNCTION timetrack_operator_set(text, text, text, text, integer, text) TO \(group(.admin))")
        sql.append("COMMIT")
        return sql.joined(separator: ";\n")
    }

    /// Decisions made only through the tool.
    ///
    /// A write that decides (an item's status, its live
    /// revision, who approved it, why it was rejected; a revision's state or content; a lock; an
    /// absence's outcome, a ticket's replies, a post's moderation note; anything of an item
    /// that is live) commits only with an audit entry for that item appended in the same
    /// transaction, in the caller's own name, of an action the caller's role may take on that
    /// item's kind and school. A plain `UPDATE items SET status = 'published'` from psql has
    /// none, and is refused when it commits (a deferred constraint trigger, so the tool may
    /// write the entry after the row). The tables' owner is not checked (it can drop any
    /// trigger; `audit verify` catches an item whose status no entry made).
    static var decisionGuard: [String] {
        let staffKinds = kinds { $0.traits.review != .importedContent }
        // Alerts are approved by a person with the alerts right, never by an import.
        let importedKinds = kinds { $0.traits.review == .importedContent && $0 != .alert }
        var sql: [String] = []
        // Whether a row's xmin is this transaction's (or one of its savepoints'): a row visible
        // here whose transaction is still in progress can only be this one's. The 32-bit xmin
        // is made whole as the id nearest the transaction's own (within 2^31 either way): a
        // savepoint's id is newer than its transaction's, and at an epoch's start an older
        // row's is from the epoch before.
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_mine(x xid) RETURNS boolean LANGUAGE sql VOLATILE SET search_path = public AS $$
                SELECT CASE WHEN f.id > 0 THEN txid_status(f.id) = 'in progress' ELSE false END
                FROM (SELECT txid_current() + ((x::text::bigint - (txid_current() & 4294967295) + 2147483648) % 4294967296 + 4294967296) % 4294967296
                    - 2147483648 AS id) AS f $$
            """)
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_decided(p_seq bigint) RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
            DECLARE me operators; it items; entry record;
            BEGIN
                SELECT * INTO me FROM operators WHERE login = session_user AND active = 1;
                IF NOT FOUND THEN RETURN false; END IF;
                SELECT * INTO it FROM items WHERE seq = p_seq;
                IF NOT FOUND THEN RETURN false; END IF;
                FOR entry IN SELECT a.action, a.operator FROM audit a WHERE a.item_seq = p_seq AND timetrack_mine(a.xmin) LOOP
                    CONTINUE WHEN entry.operator <> me.name
                        AND NOT (me.role = 'admin' AND right(entry.operator, length(me.name) + 5) = ' (by ' || me.name || ')');
                    IF me.role = 'admin' THEN RETURN true; END IF;
                    IF me.role = 'importer' AND (entry.action IN ('import-new', 'import-change', 'import-locked', 'withdraw', 'go-live', 'expire', 'review-due')
                        OR (entry.action = 'approve' AND it.kind IN (\(importedKinds)))) THEN RETURN true; END IF;
                    IF me.role = 'staff' AND it.kind = 'alert' AND me.alerts = 1 AND timetrack_covers(it.school) AND entry.action NOT LIKE 'import-%' THEN
                        RETURN true;
                    END IF;
                    IF me.role = 'staff' AND it.kind IN (\(staffKinds)) AND timetrack_covers(it.school) AND entry.action NOT LIKE 'import-%' THEN
                        RETURN true;
                    END IF;
                END LOOP;
                RETURN false;
            END $$
            """)
        sql.append("REVOKE ALL ON FUNCTION timetrack_decided(bigint) FROM PUBLIC")
        sql.append("GRANT EXECUTE ON FUNCTION timetrack_decided(bigint) TO \(Operator.Role.allCases.map(group).joined(separator: ", "))")
        sql.append(
            """
            CREATE OR REPLACE FUNCTION timetrack_decision_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
            DECLARE seq bigint; deciding boolean; n jsonb; o jsonb;
            BEGIN
                IF session_user = (SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'items')
                    OR (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) THEN RETURN NULL; END IF;
                IF TG_TABLE_NAME = 'items' THEN
                    seq := NEW.seq;
                    deciding := CASE TG_OP WHEN 'INSERT' THEN NEW.status <> 'pending' OR NEW.live_revision IS NOT NULL OR NEW.approved_by IS NOT NULL
                        ELSE (NEW.status, NEW.live_revision, NEW.approved_by, NEW.approved_at, NEW.reject_reason, NEW.archived_from, NEW.kind, NEW.school,
                              NEW.id) IS DISTINCT FROM
                             (OLD.status, OLD.live_revision, OLD.approved_by, OLD.approved_at, OLD.reject_reason, OLD.archived_from, OLD.kind, OLD.school,
                              OLD.id) END;
                ELSIF TG_TABLE_NAME = 'revisions' THEN
                    seq := NEW.item_seq;
                    deciding := TG_OP = 'UPDATE' OR NEW.state <> 'pending';
                ELSIF TG_TABLE_NAME = 'field_locks' THEN
                    IF TG_OP = 'DELETE' THEN seq := OLD.item_seq; ELSE seq := NEW.item_seq; END IF;
                    -- An import notes the source's value on a lock; nothing else of a lock is its.
                    deciding := TG_OP <> 'UPDATE' OR (NEW.item_seq, NEW.field, NEW.locked_by, NEW.locked_at)
                        IS DISTINCT FROM (OLD.item_seq, OLD.field, OLD.locked_by, OLD.locked_at);
                ELSE
                    -- The kind's table: each table's own columns read by name from the row as JSON.
                    seq := NEW.item_seq;
                    n := to_jsonb(NEW);
                    o := CASE WHEN TG_OP = 'UPDATE' THEN to_jsonb(OLD) ELSE '{"replies": "[]", "closed": 0}'::jsonb END;
                    deciding := EXISTS (SELECT 1 FROM items i WHERE i.seq = NEW.item_seq AND (i.live_revision IS NOT NULL OR i.status <> 'pending'))
                        OR (TG_TABLE_NAME = 'absence_reports' AND n ->> 'outcome' IS DISTINCT FROM o ->> 'outcome')
                        OR (TG_TABLE_NAME = 'tickets' AND (n -> 'replies', n -> 'closed') IS DISTINCT FROM (o -> 'replies', o -> 'closed'))
                        OR (TG_TABLE_NAME = 'posts' AND n ->> 'moderation_note' IS DISTINCT FROM o ->> 'moderation_note');
                    IF TG_TABLE_NAME = 'events' AND TG_OP = 'UPDATE' AND (n - 'place_key') = (o - 'place_key') THEN
                        deciding := false;  -- a place's pin found for it (`place add`)
                    END IF;
                END IF;
                IF deciding AND NOT timetrack_decided(seq) THEN
                    RAISE EXCEPTION 'a decision on an item goes through timetrack-admin: % of %.% for item % has no audit entry of a decision % may take',
                        TG_OP, current_schema(), TG_TABLE_NAME, seq, session_user USING ERRCODE = 'insufficient_privilege',
                        HINT = 'approve, reject, edit, archive and the rest are the tool''s commands; each writes its audit entry';
                END IF;
                RETURN NULL;
            END $$
            """)
        for table in ["items", "revisions", "field_locks"] + Projection.kindTables {
            let events = table == "field_locks" ? "INSERT OR UPDATE OR DELETE" : "INSERT OR UPDATE"
            sql.append("DROP TRIGGER IF EXISTS \(table)_decision_guard ON \(table)")
            sql.append(
                "CREATE CONSTRAINT TRIGGER \(table)_decision_guard AFTER \(events) ON \(table) DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
                    + " EXECUTE FUNCTION timetrack_decision_guard()")
        }
        return sql
    }

    /// The four policies of a table: all rows to admins and importers, the staff's and the
    /// viewers' rows to them.
    static func policies(on table: String, staffSees: String, staffDecides: String, viewerSees: String) -> [String] {
        [
            "DROP POLICY IF EXISTS \(table)_all ON \(table)", "DROP POLICY IF EXISTS \(table)_staff_read ON \(table)",
            "DROP POLICY IF EXISTS \(table)_staff_write ON \(table)", "DROP POLICY IF EXISTS \(table)_staff_add ON \(table)",
            "DROP POLICY IF EXISTS \(table)_staff_remove ON \(table)", "DROP POLICY IF EXISTS \(table)_viewer ON \(table)",
            "CREATE POLICY \(table)_all ON \(table) TO \(group(.admin)), \(group(.importer)) USING (true) WITH CHECK (true)",
            "CREATE POLICY \(table)_staff_read ON \(table) FOR SELECT TO \(group(.staff)) USING \(staffSees)",
            "CREATE POLICY \(table)_staff_write ON \(table) FOR UPDATE TO \(group(.staff)) USING \(staffDecides) WITH CHECK \(staffDecides)",
            "CREATE POLICY \(table)_staff_add ON \(table) FOR INSERT TO \(group(.staff)) WITH CHECK \(staffDecides)",
            "CREATE POLICY \(table)_staff_remove ON \(table) FOR DELETE TO \(group(.staff)) USING \(staffDecides)",
            "CREATE POLICY \(table)_viewer ON \(table) FOR SELECT TO \(group(.viewer)) USING \(viewerSees)",
        ]
    }

    /// Whether `store grant` ran on this database (the operator function exists).
    static func granted(_ db: PostgresConnection) throws -> Bool {
        try db.scalar("SELECT to_regprocedure('timetrack_operator_set(text, text, text, text, integer, text)') IS NOT NULL") == "t"
    }

    /// Runs the script; the caller must own the tables (and may create roles).
    public static func apply(address: String) throws {
        let db = try PostgresConnection(address)
        defer { db.close() }
        do {
            try db.execute(script)
        } catch let error as TimeTrackError {
            try? db.execute("ROLLBACK")
            throw TimeTrackError(
                .permission, "store grant failed: \(error.message)",
                fix: "run it as the role that owns the store's tables (the first to use it), which must be allowed to create roles (CREATEROLE)",
                context: error.context)
        }
    }
}
