/// The store's schema, as numbered migrations.
///
/// `PRAGMA user_version` holds the version applied;
/// `PRAGMA application_id` marks the file as a Time Track store.
///
/// Never edit a released migration: add a new one. docs/store-schema.md describes the tables.
enum Schema {
    /// `TTA1` in ASCII: identifies a Time Track Admin store.
    static let applicationID: Int32 = 0x5454_4131

    /// Migration `n` (1-based) upgrades a store from version n-1 to n.
    static let migrations: [String] = [
        // 1: items, revisions, locks, runs, audit, operators, and typed per-kind tables.
        """
        CREATE TABLE operators (
            name TEXT PRIMARY KEY COLLATE NOCASE,
            role TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
            created_at TEXT NOT NULL
        );
        CREATE TABLE import_runs (
            id INTEGER PRIMARY KEY,
            source_id TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,
            operator TEXT NOT NULL,
            found INTEGER NOT NULL DEFAULT 0,
            new INTEGER NOT NULL DEFAULT 0,
            changed INTEGER NOT NULL DEFAULT 0,
            unchanged INTEGER NOT NULL DEFAULT 0,
            missing INTEGER NOT NULL DEFAULT 0,
            problems INTEGER NOT NULL DEFAULT 0,
            message TEXT
        );
        CREATE INDEX import_runs_source ON import_runs (source_id, id);
        CREATE TABLE items (
            seq INTEGER PRIMARY KEY,
            id TEXT UNIQUE COLLATE NOCASE,
            kind TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'published', 'rejected', 'archived')),
            school TEXT,
            title TEXT NOT NULL,
            sort_at TEXT,
            source_id TEXT,
            source_key TEXT,
            source_url TEXT,
            fetched_at TEXT,
            page_hash TEXT,
            importer TEXT,
            importer_version TEXT,
            live_revision INTEGER,
            pending_revision INTEGER,
            base_hash TEXT NOT NULL,
            approved_by TEXT,
            approved_at TEXT,
            reject_reason TEXT,
            archived_from TEXT,
            missing_runs INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (source_id, source_key)
        );
        CREATE INDEX items_list ON items (kind, status, sort_at DESC, seq DESC);
        CREATE INDEX items_review ON items (kind, seq, status) WHERE pending_revision IS NOT NULL;
        CREATE TABLE revisions (
            item_seq INTEGER NOT NULL REFERENCES items (seq),
            number INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'live', 'superseded', 'rejected')),
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            created_at TEXT NOT NULL,
            created_by TEXT NOT NULL,
            run_id INTEGER REFERENCES import_runs (id),
            note TEXT,
            PRIMARY KEY (item_seq, number)
        ) WITHOUT ROWID;
        CREATE TABLE field_locks (
            item_seq INTEGER NOT NULL REFERENCES items (seq),
            field TEXT NOT NULL,
            locked_by TEXT NOT NULL,
            locked_at TEXT NOT NULL,
            PRIMARY KEY (item_seq, field)
        ) WITHOUT ROWID;
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            operator TEXT NOT NULL,
            action TEXT NOT NULL,
            item_seq INTEGER REFERENCES items (seq),
            item_id TEXT,
            reason TEXT,
            detail TEXT
        );
        CREATE INDEX audit_item ON audit (item_seq, id);
        CREATE TABLE announcements (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            title TEXT NOT NULL, summary TEXT, body TEXT, image_url TEXT, image_alt TEXT, link TEXT,
            published_at TEXT, priority TEXT NOT NULL, expires_at TEXT
        );
        CREATE TABLE events (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            title TEXT NOT NULL, category TEXT NOT NULL, starts_at TEXT NOT NULL, ends_at TEXT,
            all_day INTEGER NOT NULL, time_zone TEXT NOT NULL, location_name TEXT, address TEXT,
            latitude REAL, longitude REAL, description TEXT, link TEXT, state TEXT NOT NULL
        );
        CREATE INDEX events_start ON events (starts_at);
        CREATE TABLE school_info (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            section TEXT NOT NULL, title TEXT NOT NULL, url TEXT NOT NULL, document_type TEXT NOT NULL, fingerprint TEXT, group_name TEXT
        );
        CREATE TABLE posts (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            author_name TEXT NOT NULL, author_role TEXT NOT NULL, text TEXT NOT NULL, image_urls TEXT NOT NULL,
            created_at TEXT NOT NULL, moderation_note TEXT
        );
        CREATE TABLE absence_reports (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            student TEXT NOT NULL, reported_by TEXT NOT NULL, first_date TEXT, dates TEXT NOT NULL, periods TEXT NOT NULL,
            reason TEXT NOT NULL, note TEXT, outcome TEXT
        );
        CREATE TABLE tickets (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            from_name TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, message TEXT NOT NULL,
            replies TEXT NOT NULL, reply_count INTEGER NOT NULL, closed INTEGER NOT NULL
        );
        """,
        // 2: per-source state (schedule, hold, last good run) and the HTTP validator cache, and
        //    views that show an app backend exactly what is published.
        """
        CREATE TABLE source_state (
            source_id TEXT PRIMARY KEY,
            last_run_at TEXT,
            last_good_run INTEGER REFERENCES import_runs (id),
            last_good_count INTEGER,
            last_good_dated INTEGER,
            held_reason TEXT,
            held_run INTEGER REFERENCES import_runs (id)
        );
        CREATE TABLE fetch_cache (
            url TEXT PRIMARY KEY,
            etag TEXT,
            last_modified TEXT,
            body_hash TEXT,
            fetched_at TEXT NOT NULL
        );
        CREATE VIEW published_announcements AS
            SELECT i.id, i.school, a.* FROM items i JOIN announcements a ON a.item_seq = i.seq WHERE i.status = 'published';
        CREATE VIEW published_events AS
            SELECT i.id, i.school, e.* FROM items i JOIN events e ON e.item_seq = i.seq WHERE i.status = 'published';
        CREATE VIEW published_school_info AS
            SELECT i.id, i.school, s.* FROM items i JOIN school_info s ON s.item_seq = i.seq WHERE i.status = 'published';
        CREATE VIEW published_posts AS
            SELECT i.id, i.school, p.* FROM items i JOIN posts p ON p.item_seq = i.seq WHERE i.status = 'published';
        """,
        // 3: cached bodies beside the validators, so a 304 can be read again; runs by status.
        """
        ALTER TABLE fetch_cache ADD COLUMN content_type TEXT;
        ALTER TABLE fetch_cache ADD COLUMN body BLOB;
        CREATE INDEX import_runs_status ON import_runs (status) WHERE status = 'running';
        """,
        // 4: what importers read from each page, by the page's hash (unchanged pages are not
        //    parsed again); lists of pending items of any kind; the review queue.
        """
        CREATE TABLE page_memo (
            source_id TEXT NOT NULL,
            url TEXT NOT NULL,
            page_hash TEXT NOT NULL,
            signature TEXT NOT NULL,
            payload BLOB NOT NULL,
            PRIMARY KEY (source_id, url)
        ) WITHOUT ROWID;
        CREATE INDEX items_by_status ON items (status, sort_at DESC, seq DESC);
        CREATE INDEX items_missing ON items (missing_runs) WHERE missing_runs > 0;
        """,
        // 5: locks that settle: the upstream value of a locked field, recorded once when it
        //    differs from the operator's (JSON), and when it was first seen.
        """
        ALTER TABLE field_locks ADD COLUMN upstream TEXT;
        ALTER TABLE field_locks ADD COLUMN upstream_at TEXT;
        """,
        // 6: revert and undo: when a revision first went live (the versions `revert` can go
        //    back to), and the batch decisions taken together share (a bulk approval, an undo);
        //    what an importer guessed for an item's content (a year), one note a line.
        """
        ALTER TABLE revisions ADD COLUMN went_live_at TEXT;
        UPDATE revisions SET went_live_at = (SELECT coalesce(approved_at, updated_at) FROM items WHERE items.seq = revisions.item_seq)
            WHERE state = 'live';
        ALTER TABLE audit ADD COLUMN batch TEXT;
        CREATE INDEX audit_operator ON audit (operator, id);
        ALTER TABLE items ADD COLUMN guessed TEXT;
        """,
        // 7: the audit log as a hash chain (see AuditChain): each entry's hash and the one
        //    before it; existing entries are chained and the append-only triggers added by
        //    `AuditChain.backfill`, run right after this step.
        """
        ALTER TABLE audit ADD COLUMN prev_hash TEXT;
        ALTER TABLE audit ADD COLUMN hash TEXT;
        """,
        // 8: operators bound to Unix accounts (peer authentication): `login` (one active
        //    operator per account), the schools a staff member works for (JSON list; NULL: all),
        //    and `active` (a removed operator stays for the audit); roles importer and viewer (the
        //    table is rebuilt for its CHECK). Existing operators get the
        //    login of the account with their name, when there is one (`Identity.backfill`).
        """
        CREATE TABLE operators_v8 (
            name TEXT PRIMARY KEY COLLATE NOCASE,
            role TEXT NOT NULL CHECK (role IN ('admin', 'importer', 'staff', 'viewer')),
            created_at TEXT NOT NULL,
            login TEXT,
            schools TEXT,
            active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
        );
        INSERT INTO operators_v8 (name, role, created_at) SELECT name, role, created_at FROM operators;
        DROP TABLE operators;
        ALTER TABLE operators_v8 RENAME TO operators;
        CREATE UNIQUE INDEX operators_login ON operators (login) WHERE login IS NOT NULL AND active = 1;
        """,
        // 9: places for the app's map (`place add`): each school's gazetteer, the keys events'
        //    location names are matched by (`PlaceKey`; existing events get theirs in
        //    `SQLiteStore.backfillPlaceKeys`), and published_events with each event's pin: its own
        //    coordinates, else its place's, else (no location) its school's default place.
        """
        CREATE TABLE places (
            id INTEGER PRIMARY KEY,
            school TEXT,
            name TEXT NOT NULL,
            address TEXT,
            latitude REAL,
            longitude REAL,
            aliases TEXT NOT NULL DEFAULT '[]',
            is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
            created_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX places_name ON places (ifnull(school, ''), name COLLATE NOCASE);
        CREATE TABLE place_names (
            key TEXT NOT NULL,
            school TEXT,
            place_id INTEGER NOT NULL REFERENCES places (id)
        );
        CREATE UNIQUE INDEX place_names_key ON place_names (key, ifnull(school, ''));
        ALTER TABLE events ADD COLUMN place_key TEXT;
        DROP VIEW published_events;
        CREATE VIEW published_events AS
            SELECT i.id, i.school, e.*, p.name AS place, coalesce(e.address, p.address) AS pin_address,
                coalesce(e.latitude, p.latitude) AS pin_latitude, coalesce(e.longitude, p.longitude) AS pin_longitude
            FROM items i JOIN events e ON e.item_seq = i.seq
            LEFT JOIN places p ON p.id = CASE WHEN e.place_key IS NULL
                THEN (SELECT d.id FROM places d WHERE d.is_default = 1 AND d.school IS i.school)
                ELSE coalesce(
                    (SELECT n.place_id FROM place_names n WHERE n.key = e.place_key AND n.school IS i.school),
                    (SELECT n.place_id FROM place_names n WHERE n.key = e.place_key AND n.school IS NULL)) END
            WHERE i.status = 'published';
        """,
        // 10: coursework deadlines (`deadline` items) and the courses they belong to, with each
        //     course's reminder offsets and category weights; published_deadlines gives the app
        //     each deadline's course, weight and reminders resolved (its own, else its course's,
        //     else one day and two hours).
        """
        CREATE TABLE courses (
            code TEXT PRIMARY KEY COLLATE NOCASE,
            name TEXT NOT NULL,
            teacher TEXT,
            school TEXT,
            reminders TEXT NOT NULL DEFAULT '[1440,120]',
            weights TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL
        );
        CREATE TABLE deadlines (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq),
            title TEXT NOT NULL, course TEXT NOT NULL, course_name TEXT, teacher TEXT, due_at TEXT NOT NULL, time_zone TEXT NOT NULL,
            due_time_guessed INTEGER NOT NULL, category TEXT NOT NULL, weight REAL, points REAL, reminders TEXT, link TEXT,
            description TEXT, source_line TEXT
        );
        CREATE INDEX deadlines_due ON deadlines (due_at);
        CREATE INDEX deadlines_course ON deadlines (course COLLATE NOCASE, due_at);
        CREATE VIEW published_deadlines AS
            SELECT i.id, coalesce(c.school, i.school) AS school, d.title, d.course, coalesce(c.name, d.course_name, d.course) AS course_name,
                coalesce(d.teacher, c.teacher) AS teacher, d.due_at, d.time_zone, d.due_time_guessed, d.category,
                coalesce(d.weight, json_extract(c.weights, '$.' || d.category)) AS weight, d.points,
                coalesce(d.reminders, c.reminders, '[1440,120]') AS reminders, d.link, d.description
            FROM items i JOIN deadlines d ON d.item_seq = i.seq LEFT JOIN courses c ON c.code = d.course
            WHERE i.status = 'published';
        """,
        // 11: each body stored once. Revisions and page memos become rowid tables (as WITHOUT
        //     ROWID tables their kilobyte rows each spilled into an overflow page of their own:
        //     2.6× the content on disk); the announcements row no longer copies the body, which
        //     published_announcements reads from the live revision.
        """
        CREATE TABLE revisions_v11 (
            item_seq INTEGER NOT NULL REFERENCES items (seq),
            number INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'live', 'superseded', 'rejected')),
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            created_at TEXT NOT NULL,
            created_by TEXT NOT NULL,
            run_id INTEGER REFERENCES import_runs (id),
            note TEXT,
            went_live_at TEXT,
            UNIQUE (item_seq, number)
        );
        INSERT INTO revisions_v11 (item_seq, number, state, content, content_hash, created_at, created_by, run_id, note, went_live_at)
            SELECT item_seq, number, state, content, content_hash, created_at, created_by, run_id, note, went_live_at FROM revisions ORDER BY item_seq, number;
        DROP TABLE revisions;
        ALTER TABLE revisions_v11 RENAME TO revisions;
        CREATE TABLE page_memo_v11 (
            source_id TEXT NOT NULL,
            url TEXT NOT NULL,
            page_hash TEXT NOT NULL,
            signature TEXT NOT NULL,
            payload BLOB NOT NULL,
            UNIQUE (source_id, url)
        );
        INSERT INTO page_memo_v11 SELECT source_id, url, page_hash, signature, payload FROM page_memo;
        DROP TABLE page_memo;
        ALTER TABLE page_memo_v11 RENAME TO page_memo;
        DROP VIEW published_announcements;
        ALTER TABLE announcements DROP COLUMN body;
        CREATE VIEW published_announcements AS
            SELECT i.id, i.school, a.item_seq, a.title, a.summary, json_extract(r.content, '$.body') AS body, a.image_url, a.image_alt, a.link,
                a.published_at, a.priority, a.expires_at
            FROM items i JOIN announcements a ON a.item_seq = i.seq JOIN revisions r ON r.item_seq = i.seq AND r.number = i.live_revision
            WHERE i.status = 'published';
        """,
        // 12: a page memo row keeps its local file's stamp (device, inode, size, change times),
        //     so an unchanged file is known without reading and hashing it again.
        "ALTER TABLE page_memo ADD COLUMN stamp TEXT",
        // 13: the item memo leaves the page memo for a table of its own, keyed by the item's
        //     number: one B-tree instead of a row and an index entry, no source id or key copied
        //     (the item has them). Entries whose item is gone go (they could never settle one).
        """
        CREATE TABLE item_memo (
            item_seq INTEGER PRIMARY KEY REFERENCES items (seq) ON DELETE CASCADE,
            signature TEXT NOT NULL,
            digest TEXT NOT NULL,
            payload TEXT NOT NULL
        );
        INSERT INTO item_memo (item_seq, signature, digest, payload)
            SELECT i.seq, m.signature, m.page_hash, CAST(m.payload AS TEXT)
            FROM page_memo m JOIN items i ON i.source_id = m.source_id AND i.source_key = substr(m.url, 6)
            WHERE substr(m.url, 1, 5) = 'item:';
        DELETE FROM page_memo WHERE substr(url, 1, 5) = 'item:';
        """,
        // 14: what `undo` needs to take a decision back (the item before it), beside its entry;
        //     outside the chain's hash.
        "ALTER TABLE audit ADD COLUMN undo TEXT",
        // 15: alerts, the statuses time and withdrawal give, each item's times, the alerts
        //     right, and published views that read the times (Schema+Times.swift).
        migration15,
    ]

    /// Runs migration `number` (1-based) and the work done in Swift right after it, in the
    /// same transaction.
    static func apply(_ number: Int, on db: Database) throws {
        try db.execute(migrations[number - 1])
        switch number {
        case 7: try AuditChain.backfill(db)
        case 8: try SQLiteStore.backfillLogins(db)
        case 9: try SQLiteStore.backfillPlaceKeys(db)
        case 15: try widenStatusCheck(db)
        default: break
        }
    }

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }
}
