import Foundation
import TimeTrackCore

extension SQLiteStore {
    public func courses() throws -> [Course] {
        try db.rows("SELECT code, name, teacher, school, reminders, weights FROM courses ORDER BY code COLLATE NOCASE", []) { s in
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
            throw TimeTrackError(.usage, "invalid course: " + problems.map(\.description).joined(separator: "; "), fix: "e.g. course add CHEM-AP --name \"AP Chemistry\" --teacher \"Ms. Patel\"")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reminders = String(decoding: (try? encoder.encode(course.reminders)) ?? Data("[]".utf8), as: UTF8.self)
        let weights = String(decoding: (try? encoder.encode(course.weights)) ?? Data("{}".utf8), as: UTF8.self)
        return try db.transaction {
            let existing = try db.row("SELECT name, teacher, school, reminders, weights FROM courses WHERE code = ?", [.text(course.code)]) { s in
                [s.text(0), s.optionalText(1) ?? "", s.optionalText(2) ?? "", s.text(3), s.text(4)]
            }
            if let existing {
                if onlyIfMissing || existing == [course.name, course.teacher ?? "", course.school ?? "", reminders, weights] { return false }
                _ = try db.run(
                    "UPDATE courses SET name = ?, teacher = ?, school = ?, reminders = ?, weights = ? WHERE code = ?",
                    [.text(course.name), .text(course.teacher), .text(course.school), .text(reminders), .text(weights), .text(course.code)])
            } else {
                _ = try db.run(
                    "INSERT INTO courses (code, name, teacher, school, reminders, weights, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.text(course.code), .text(course.name), .text(course.teacher), .text(course.school), .text(reminders), .text(weights), .date(now())])
            }
            var detail = "\(course.code): \(course.name)"
            if let teacher = course.teacher { detail += ", \(teacher)" }
            if let school = course.school { detail += " at \(school)" }
            detail += "; reminders " + course.reminders.map(ReminderOffset.text).joined(separator: ", ")
            if !course.weights.isEmpty { detail += "; weights " + course.weights.sorted { $0.key < $1.key }.map { "\($0.key) \(NumberText.percent($0.value))" }.joined(separator: ", ") }
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: existing == nil ? "course-add" : "course-change", itemSeq: nil, itemID: nil, reason: nil, detail: detail))
            return true
        }
    }

    public func removeCourse(_ code: String, by operatorName: String) throws -> Bool {
        try db.transaction {
            guard let name = try db.row("SELECT code || ': ' || name FROM courses WHERE code = ?", [.text(code)], { $0.text(0) }) else { return false }
            _ = try db.run("DELETE FROM courses WHERE code = ?", [.text(code)])
            try appendAudit(NewAuditEntry(at: now(), operatorName: operatorName, action: "course-remove", itemSeq: nil, itemID: nil, reason: nil, detail: name))
            return true
        }
    }
}
