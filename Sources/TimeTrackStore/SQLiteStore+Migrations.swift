import Foundation
import TimeTrackCore

extension SQLiteStore {
    /// Migration 8: operators made before logins existed get the login of the Unix account with
    /// their name, when there is one.
    ///
    /// If no active admin then has a login, the oldest admin is bound to the account that owns the
    /// store file, so the store's owner is never locked out.
    static func backfillLogins(_ db: Database) throws {
        let names = try db.rows("SELECT name, role FROM operators ORDER BY created_at, name") { ($0.text(0), $0.text(1)) }
        for (name, _) in names where getpwnam(name) != nil {
            try db.run("UPDATE operators SET login = ? WHERE name = ?", [.text(name), .text(name)])
        }
        let boundAdmins = try db.row("SELECT count(*) FROM operators WHERE role = 'admin' AND login IS NOT NULL") { $0.int(0) } ?? 0
        guard boundAdmins == 0, let admin = names.first(where: { $0.1 == "admin" })?.0 else { return }
        let file = try db.row("PRAGMA database_list") { $0.text(2) } ?? ""
        var info = stat()
        guard !file.isEmpty, stat(file, &info) == 0, let owner = getpwuid(info.st_uid)?.pointee.pw_name else { return }
        let account = String(cString: owner)
        try db.run("UPDATE operators SET login = NULL WHERE login = ?", [.text(account)])
        try db.run("UPDATE operators SET login = ? WHERE name = ?", [.text(account), .text(admin)])
    }

    /// Migration 9: the place key of every event stored before places existed.
    static func backfillPlaceKeys(_ db: Database) throws {
        let rows = try db.rows("SELECT item_seq, location_name FROM events WHERE location_name IS NOT NULL", []) { ($0.int64(0), $0.text(1)) }
        for (seq, name) in rows {
            _ = try db.run("UPDATE events SET place_key = ? WHERE item_seq = ?", [.text(PlaceKey.make(name)), .integer(seq)])
        }
    }
}
