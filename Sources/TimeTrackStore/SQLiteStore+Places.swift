import Foundation
import TimeTrackCore

extension SQLiteStore {
    public func places() throws -> [Place] {
        try db.rows("SELECT id, school, name, address, latitude, longitude, aliases, is_default FROM places ORDER BY ifnull(school, ''), name", []) { s in
            Place(
                id: s.int64(0), school: s.optionalText(1), name: s.text(2), address: s.optionalText(3), latitude: s.optionalDouble(4), longitude: s.optionalDouble(5),
                aliases: (try? JSONDecoder().decode([String].self, from: Data(s.text(6).utf8))) ?? [], isDefault: s.int(7) != 0)
        }
    }

    public func addPlace(_ place: Place, by operatorName: String) throws -> Place {
        guard PlaceKey.make(place.name) != nil else {
            throw TimeTrackError(.usage, "a place needs a name with letters or digits", fix: "e.g. place add \"Main Gym\" --school hillcrest --address \"2775 E Bengal Blvd\"")
        }
        if let latitude = place.latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw TimeTrackError(.usage, "--lat \(latitude) is not a latitude (from -90 to 90)")
        }
        if let longitude = place.longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw TimeTrackError(.usage, "--lon \(longitude) is not a longitude (from -180 to 180)")
        }
        if (place.latitude == nil) != (place.longitude == nil) { throw TimeTrackError(.usage, "give both --lat and --lon, or neither") }
        return try db.transaction {
            // Another place of this school (or district-wide) already answering to a name: say which.
            for key in Set(place.keys) {
                if let holder = try db.row(
                    "SELECT p.name FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? AND n.school IS ? AND NOT (p.name = ? COLLATE NOCASE)",
                    [.text(key), .text(place.school), .text(place.name)], { $0.text(0) })
                {
                    throw TimeTrackError(
                        .usage, "'\(key)' already names the place \(holder)" + (place.school.map { " at \($0)" } ?? ""),
                        fix: "one name, one place: pick another alias, or `place remove` the other")
                }
            }
            if place.isDefault { try db.run("UPDATE places SET is_default = 0 WHERE school IS ?", [.text(place.school)]) }
            let aliases = String(decoding: (try? JSONEncoder().encode(place.aliases)) ?? Data("[]".utf8), as: UTF8.self)
            let existing = try db.row("SELECT id FROM places WHERE ifnull(school, '') = ifnull(?, '') AND name = ? COLLATE NOCASE", [.text(place.school), .text(place.name)]) { $0.int64(0) }
            let id: Int64
            if let existing {
                _ = try db.run(
                    "UPDATE places SET name = ?, address = ?, latitude = ?, longitude = ?, aliases = ?, is_default = ? WHERE id = ?",
                    [.text(place.name), .text(place.address), .real(place.latitude), .real(place.longitude), .text(aliases), .bool(place.isDefault), .integer(existing)])
                _ = try db.run("DELETE FROM place_names WHERE place_id = ?", [.integer(existing)])
                id = existing
            } else {
                _ = try db.run(
                    "INSERT INTO places (school, name, address, latitude, longitude, aliases, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [.text(place.school), .text(place.name), .text(place.address), .real(place.latitude), .real(place.longitude), .text(aliases), .bool(place.isDefault), .date(now())])
                id = db.lastInsertRowID
            }
            for key in Set(place.keys) { _ = try db.run("INSERT INTO place_names (key, school, place_id) VALUES (?, ?, ?)", [.text(key), .text(place.school), .integer(id)]) }
            var detail = place.name + (place.school.map { " at \($0)" } ?? " (district)")
            if let address = place.address { detail += ", \(address)" }
            if let latitude = place.latitude, let longitude = place.longitude { detail += " (\(latitude), \(longitude))" }
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: existing == nil ? "place-add" : "place-change", itemSeq: nil, itemID: nil, reason: nil, detail: detail))
            var saved = place
            saved.id = id
            return saved
        }
    }

    public func removePlace(_ id: Int64, by operatorName: String) throws -> Bool {
        try db.transaction {
            guard let name = try db.row("SELECT name FROM places WHERE id = ?", [.integer(id)], { $0.text(0) }) else { return false }
            _ = try db.run("DELETE FROM place_names WHERE place_id = ?", [.integer(id)])
            _ = try db.run("DELETE FROM places WHERE id = ?", [.integer(id)])
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: "place-remove", itemSeq: nil, itemID: nil, reason: nil, detail: name))
            return true
        }
    }

    public func unmatchedLocations() throws -> [(school: String?, name: String, events: Int)] {
        try db.rows(
            """
            SELECT i.school, min(e.location_name), count(*) FROM items i JOIN events e ON e.item_seq = i.seq
            WHERE i.status IN ('pending', 'published') AND e.place_key IS NOT NULL AND (e.latitude IS NULL OR e.longitude IS NULL)
              AND NOT EXISTS (SELECT 1 FROM place_names n WHERE n.key = e.place_key AND (n.school IS i.school OR n.school IS NULL))
            GROUP BY i.school, e.place_key ORDER BY count(*) DESC, min(e.location_name)
            """, []
        ) { s in (s.optionalText(0), s.text(1), s.int(2)) }
    }

    /// Migration 9: the place key of every event stored before places existed.
    static func backfillPlaceKeys(_ db: Database) throws {
        let rows = try db.rows("SELECT item_seq, location_name FROM events WHERE location_name IS NOT NULL", []) { ($0.int64(0), $0.text(1)) }
        for (seq, name) in rows {
            _ = try db.run("UPDATE events SET place_key = ? WHERE item_seq = ?", [.text(PlaceKey.make(name)), .integer(seq)])
        }
    }
}

extension SQLiteStore {
    /// What the store holds on disk, for the benchmark: bytes in use (pages less free pages),
    /// the bytes of all revisions' content, and how many revisions there are.
    public func storageFigures() throws -> (usedBytes: Int, contentBytes: Int, revisions: Int) {
        let pageSize = try db.row("PRAGMA page_size", []) { $0.int(0) } ?? 0
        let pages = try db.row("PRAGMA page_count", []) { $0.int(0) } ?? 0
        let free = try db.row("PRAGMA freelist_count", []) { $0.int(0) } ?? 0
        let (content, revisions) = try db.row("SELECT coalesce(sum(length(CAST(content AS BLOB))), 0), count(*) FROM revisions", []) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        return ((pages - free) * pageSize, content, revisions)
    }
}
