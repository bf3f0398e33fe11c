import Foundation
import TimeTrackCore

extension SQLStore {
    public func places() throws -> [Place] {
        try sql.select("SELECT id, school, name, address, latitude, longitude, aliases, is_default FROM places ORDER BY coalesce(school, ''), name", []) { s in
            Place(
                id: s.int64(0), school: s.optionalText(1), name: s.text(2), address: s.optionalText(3), latitude: s.optionalDouble(4),
                longitude: s.optionalDouble(5),
                aliases: (try? JSONDecoder().decode([String].self, from: Data(s.text(6).utf8))) ?? [], isDefault: s.int(7) != 0)
        }
    }

    public func addPlace(_ place: Place, by operatorName: String) throws -> Place {
        guard PlaceKey.make(place.name) != nil else {
            throw TimeTrackError(
                .usage, "a place needs a name with letters or digits", fix: "e.g. place add \"Main Gym\" --school hillcrest --address \"2775 E Bengal Blvd\"")
        }
        if let latitude = place.latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw TimeTrackError(.usage, "--lat \(latitude) is not a latitude (from -90 to 90)")
        }
        if let longitude = place.longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw TimeTrackError(.usage, "--lon \(longitude) is not a longitude (from -180 to 180)")
        }
        if (place.latitude == nil) != (place.longitude == nil) { throw TimeTrackError(.usage, "give both --lat and --lon, or neither") }
        let same = sql.dialect.same
        return try sql.transaction {
            // Another place of this school (or district-wide) already answering to a name: say which.
            for key in Set(place.keys) {
                if let holder = try sql.first(
                    "SELECT p.name FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? AND n.school \(same) ? AND lower(p.name) != lower(?)",
                    [.text(key), .text(place.school), .text(place.name)], { $0.text(0) })
                {
                    throw TimeTrackError(
                        .usage, "'\(key)' already names the place \(holder)" + (place.school.map { " at \($0)" } ?? ""),
                        fix: "one name, one place: pick another alias, or `place remove` the other")
                }
            }
            if place.isDefault { try sql.run("UPDATE places SET is_default = 0 WHERE school \(same) ?", [.text(place.school)]) }
            let aliases = String(decoding: (try? JSONEncoder().encode(place.aliases)) ?? Data("[]".utf8), as: UTF8.self)
            let existing = try sql.first(
                "SELECT id FROM places WHERE coalesce(school, '') = coalesce(?, '') AND lower(name) = lower(?)", [.text(place.school), .text(place.name)]
            ) { $0.int64(0) }
            let id: Int64
            if let existing {
                try sql.run(
                    "UPDATE places SET name = ?, address = ?, latitude = ?, longitude = ?, aliases = ?, is_default = ? WHERE id = ?",
                    [
                        .text(place.name), .text(place.address), .real(place.latitude), .real(place.longitude), .text(aliases), .bool(place.isDefault),
                        .integer(existing),
                    ])
                try sql.run("DELETE FROM place_names WHERE place_id = ?", [.integer(existing)])
                id = existing
            } else {
                id =
                    try sql.first(
                        "INSERT INTO places (school, name, address, latitude, longitude, aliases, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?,"
                            + " ?, ?) RETURNING id",
                        [
                            .text(place.school), .text(place.name), .text(place.address), .real(place.latitude), .real(place.longitude), .text(aliases),
                            .bool(place.isDefault), .date(now()),
                        ]
                    ) { $0.int64(0) } ?? 0
            }
            for key in Set(place.keys) {
                try sql.run("INSERT INTO place_names (key, school, place_id) VALUES (?, ?, ?)", [.text(key), .text(place.school), .integer(id)])
            }
            var detail = place.name + (place.school.map { " at \($0)" } ?? " (district)")
            if let address = place.address { detail += ", \(address)" }
            if let latitude = place.latitude, let longitude = place.longitude { detail += " (\(latitude), \(longitude))" }
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: existing == nil ? .placeAdd : .placeChange, itemSeq: nil, itemID: nil, reason: nil,
                    detail: detail))
            var saved = place
            saved.id = id
            return saved
        }
    }

    public func removePlace(_ id: Int64, by operatorName: String) throws -> Bool {
        try sql.transaction {
            guard let name = try sql.first("SELECT name FROM places WHERE id = ?", [.integer(id)], { $0.text(0) }) else { return false }
            try sql.run("DELETE FROM place_names WHERE place_id = ?", [.integer(id)])
            try sql.run("DELETE FROM places WHERE id = ?", [.integer(id)])
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: .placeRemove, itemSeq: nil, itemID: nil, reason: nil, detail: name))
            return true
        }
    }

    public func unmatchedLocations() throws -> [(school: String?, name: String, events: Int)] {
        let same = sql.dialect.same
        return try sql.select(
            """
            SELECT i.school, min(e.location_name), count(*) FROM items i JOIN events e ON e.item_seq = i.seq
            WHERE i.status IN ('pending', 'published') AND e.place_key IS NOT NULL AND (e.latitude IS NULL OR e.longitude IS NULL)
              AND NOT EXISTS (SELECT 1 FROM place_names n WHERE n.key = e.place_key AND (n.school \(same) i.school OR n.school IS NULL))
            GROUP BY i.school, e.place_key ORDER BY count(*) DESC, min(e.location_name)
            """, []
        ) { s in (s.optionalText(0), s.text(1), s.int(2)) }
    }

    // MARK: Courses

    public func courses() throws -> [Course] {
        try sql.select("SELECT code, name, teacher, school, reminders, weights FROM courses ORDER BY lower(code), code", []) { s in
            Course(
                code: s.text(0), name: s.text(1), teacher: s.optionalText(2), school: s.optionalText(3),
                reminders: (try? JSONDecoder().decode([Int].self, from: Data(s.text(4).utf8))) ?? Deadline.defaultReminders,
                weights: (try? JSONDecoder().decode([String: Double].self, from: Data(s.text(5).utf8))) ?? [:])
        }
    }

    @discardableResult
    public func saveCourse(_ given: Course, by operatorName: String, onlyIfMissing: Bool) throws -> Bool {
        // Typed at a terminal or read from a definition: cleaned once, here, like item text.
        var course = given
        (course.code, course.name) = (SafeText.clean(given.code), SafeText.clean(given.name))
        (course.teacher, course.school) = (given.teacher.map(SafeText.clean), given.school.map(SafeText.clean))
        let problems = course.validate()
        guard problems.isEmpty else {
            throw TimeTrackError(
                .usage, "invalid course: " + problems.map(\.description).joined(separator: "; "),
                fix: "e.g. course add CHEM-AP --name \"AP Chemistry\" --teacher \"Ms. Patel\"")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reminders = String(decoding: (try? encoder.encode(course.reminders)) ?? Data("[]".utf8), as: UTF8.self)
        let weights = String(decoding: (try? encoder.encode(course.weights)) ?? Data("{}".utf8), as: UTF8.self)
        return try sql.transaction {
            let existing = try sql.first("SELECT name, teacher, school, reminders, weights FROM courses WHERE code = ?", [.text(course.code)]) { s in
                [s.text(0), s.optionalText(1) ?? "", s.optionalText(2) ?? "", s.text(3), s.text(4)]
            }
            if let existing {
                if onlyIfMissing || existing == [course.name, course.teacher ?? "", course.school ?? "", reminders, weights] { return false }
                try sql.run(
                    "UPDATE courses SET name = ?, teacher = ?, school = ?, reminders = ?, weights = ? WHERE code = ?",
                    [.text(course.name), .text(course.teacher), .text(course.school), .text(reminders), .text(weights), .text(course.code)])
            } else {
                try sql.run(
                    "INSERT INTO courses (code, name, teacher, school, reminders, weights, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.text(course.code), .text(course.name), .text(course.teacher), .text(course.school), .text(reminders), .text(weights), .date(now())])
            }
            var detail = "\(course.code): \(course.name)"
            if let teacher = course.teacher { detail += ", \(teacher)" }
            if let school = course.school { detail += " at \(school)" }
            detail += "; reminders " + course.reminders.map(ReminderOffset.text).joined(separator: ", ")
            if !course.weights.isEmpty {
                detail += "; weights " + course.weights.sorted { $0.key < $1.key }.map { "\($0.key) \(NumberText.percent($0.value))" }.joined(separator: ", ")
            }
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: existing == nil ? .courseAdd : .courseChange, itemSeq: nil, itemID: nil, reason: nil,
                    detail: detail))
            return true
        }
    }

    public func removeCourse(_ code: String, by operatorName: String) throws -> Bool {
        try sql.transaction {
            guard let name = try sql.first("SELECT code || ': ' || name FROM courses WHERE code = ?", [.text(code)], { $0.text(0) }) else { return false }
            try sql.run("DELETE FROM courses WHERE code = ?", [.text(code)])
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: .courseRemove, itemSeq: nil, itemID: nil, reason: nil, detail: name))
            return true
        }
    }
}
