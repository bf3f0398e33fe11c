import TimeTrackCore

/// Migration 15 on both engines: alerts as a kind, the statuses time and withdrawal give
/// (`scheduled`, `expired`, `withdrawn`), each item's times (`publish_at`, `expires_at`,
/// `review_by`, and `review_noted`: the `review_by` that `import --due` has put in review once),
/// the operators' alerts right, and the `published_*` views that leave out what is not live yet
/// or any more (docs/alerts.md).
extension Schema {
    /// What is live in a view: published, past its `publish_at`, before its `expires_at`; `now` is
    /// the engine's current instant as the store writes dates.
    static func liveCondition(now: String) -> String {
        "i.status = 'published' AND (i.publish_at IS NULL OR i.publish_at <= \(now)) AND (i.expires_at IS NULL OR i.expires_at > \(now))"
    }

    /// The views an app backend reads: what is published, live now.
    static let publishedViews = [
        "published_announcements", "published_events", "published_school_info", "published_posts", "published_deadlines", "published_alerts",
    ]

    /// SQLite's current instant as stored text.
    static let sqliteNow = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

    /// The statuses `items.status` may hold.
    static let statusCheck = "CHECK (status IN ('pending', 'published', 'rejected', 'archived', 'scheduled', 'expired', 'withdrawn'))"

    /// The columns, table and indexes migration 15 adds (the same text on both engines).
    static func timesTables(seq: String) -> String {
        """
        ALTER TABLE items ADD COLUMN publish_at TEXT;
        ALTER TABLE items ADD COLUMN expires_at TEXT;
        ALTER TABLE items ADD COLUMN review_by TEXT;
        ALTER TABLE items ADD COLUMN review_noted TEXT;
        CREATE INDEX items_publish_at ON items (publish_at) WHERE publish_at IS NOT NULL;
        CREATE INDEX items_expires_at ON items (expires_at) WHERE expires_at IS NOT NULL;
        CREATE INDEX items_review_by ON items (review_by) WHERE review_by IS NOT NULL;
        CREATE TABLE alerts (
            item_seq \(seq) PRIMARY KEY REFERENCES items (seq),
            title TEXT NOT NULL, message TEXT, severity TEXT NOT NULL, link TEXT, published_at TEXT, expires_at TEXT NOT NULL
        );
        ALTER TABLE operators ADD COLUMN alerts INTEGER NOT NULL DEFAULT 0;
        UPDATE operators SET alerts = 1 WHERE role = 'admin';
        UPDATE items SET expires_at = (SELECT a.expires_at FROM announcements a WHERE a.item_seq = items.seq) WHERE kind = 'announcement';
        """
    }

    /// The `published_*` views, made again with `live` as their condition; `school(a, b)` says
    /// "a's school is b's" in the engine's words, `weight` reads a course's weight of a category.
    static func liveViews(live: String, sameSchool: (String, String) -> String, weight: String, body: String) -> String {
        """
        DROP VIEW published_announcements;
        DROP VIEW published_events;
        DROP VIEW published_school_info;
        DROP VIEW published_posts;
        DROP VIEW published_deadlines;
        CREATE VIEW published_announcements AS
            SELECT i.id, i.school, a.item_seq, a.title, a.summary, \(body) AS body, a.image_url, a.image_alt, a.link,
                a.published_at, a.priority, a.expires_at
            FROM items i JOIN announcements a ON a.item_seq = i.seq JOIN revisions r ON r.item_seq = i.seq AND r.number = i.live_revision
            WHERE \(live);
        CREATE VIEW published_events AS
            SELECT i.id, i.school, e.*, p.name AS place, coalesce(e.address, p.address) AS pin_address,
                coalesce(e.latitude, p.latitude) AS pin_latitude, coalesce(e.longitude, p.longitude) AS pin_longitude
            FROM items i JOIN events e ON e.item_seq = i.seq
            LEFT JOIN places p ON p.id = CASE WHEN e.place_key IS NULL
                THEN (SELECT d.id FROM places d WHERE d.is_default = 1 AND \(sameSchool("d.school", "i.school")) LIMIT 1)
                ELSE coalesce(
                    (SELECT n.place_id FROM place_names n WHERE n.key = e.place_key AND \(sameSchool("n.school", "i.school"))),
                    (SELECT n.place_id FROM place_names n WHERE n.key = e.place_key AND n.school IS NULL)) END
            WHERE \(live);
        CREATE VIEW published_school_info AS
            SELECT i.id, i.school, s.* FROM items i JOIN school_info s ON s.item_seq = i.seq WHERE \(live);
        CREATE VIEW published_posts AS
            SELECT i.id, i.school, p.* FROM items i JOIN posts p ON p.item_seq = i.seq WHERE \(live);
        CREATE VIEW published_deadlines AS
            SELECT i.id, coalesce(c.school, i.school) AS school, d.title, d.course, coalesce(c.name, d.course_name, d.course) AS course_name,
                coalesce(d.teacher, c.teacher) AS teacher, d.due_at, d.time_zone, d.due_time_guessed, d.category,
                coalesce(d.weight, \(weight)) AS weight, d.points,
                coalesce(d.reminders, c.reminders, '[1440,120]') AS reminders, d.link, d.description
            FROM items i JOIN deadlines d ON d.item_seq = i.seq LEFT JOIN courses c ON lower(c.code) = lower(d.course)
            WHERE \(live);
        CREATE VIEW published_alerts AS
            SELECT i.id, i.school, a.* FROM items i JOIN alerts a ON a.item_seq = i.seq WHERE \(live);
        """
    }

    /// Migration 15 on SQLite.
    static var migration15: String {
        timesTables(seq: "INTEGER") + "\n"
            + liveViews(
                live: liveCondition(now: sqliteNow), sameSchool: { "\($0) IS \($1)" }, weight: "json_extract(c.weights, '$.' || d.category)",
                body: "json_extract(r.content, '$.body')")
    }

    /// Widens `items.status`'s CHECK on SQLite, whose tables cannot change a constraint: the
    /// table's text in `sqlite_schema` is rewritten (the documented way for a change that no
    /// stored row contradicts), in the migration's transaction.
    static func widenStatusCheck(_ db: Database) throws {
        let old = "CHECK (status IN ('pending', 'published', 'rejected', 'archived'))"
        let version = try db.optionalInt("PRAGMA schema_version") ?? 0
        try db.execute("PRAGMA writable_schema = ON")
        defer { try? db.execute("PRAGMA writable_schema = OFF") }
        try db.execute("UPDATE sqlite_schema SET sql = replace(sql, \"\(old)\", \"\(statusCheck)\") WHERE type = 'table' AND name = 'items'")
        // A table whose text was changed by hand has no such CHECK to widen: refused, and the
        // migration's transaction rolls back (a store left half-widened would refuse statuses later).
        let sql = try db.row("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'items'") { $0.text(0) } ?? ""
        guard sql.contains(statusCheck) else {
            throw TimeTrackError(
                .storeUnusable, "the items table's status check is not the one this store was made with; migration 15 cannot widen it",
                fix: "restore the store from a backup, or copy it into a new one (`store copy`)")
        }
        try db.execute("PRAGMA schema_version = \(version + 1)")
    }
}
