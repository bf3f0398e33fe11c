import Foundation
import TestSupport
import Testing

/// Two real Unix accounts on one store (made by the test with groupadd/useradd, which needs
/// root: CI runs as root): one is the admin (the first account to use the store), the other is
/// staff of one school.
///
/// Every command's permission is checked both ways, through the real binary.
@Suite(.serialized) struct AccountsTests {
    /// The accounts, their group, and a store and imports folder both can reach.
    final class Machine {
        let tag = String(UUID().uuidString.prefix(6)).lowercased()
        var group: String { "tt\(tag)g" }
        var admin: String { "tt\(tag)a" }
        var staff: String { "tt\(tag)s" }
        let dir: TemporaryDirectory
        let binary: String
        var store: String { dir.path("shared/t.sqlite") }
        var imports: String { dir.path("imports") }

        static var skipReason: String? {
            if geteuid() != 0 { return "not root: cannot create test accounts" }
            for tool in ["/usr/sbin/useradd", "/usr/sbin/groupadd", "/usr/sbin/userdel", "/usr/sbin/groupdel", "/usr/bin/setpriv"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
                return "\(tool) is missing (passwd, util-linux)"
            }
            return nil
        }

        init() throws {
            dir = try TemporaryDirectory("accounts")
            binary = dir.path("timetrack-admin")
            try Self.tool("/usr/sbin/groupadd", [group])
            try Self.tool("/usr/sbin/useradd", ["-M", "-s", "/usr/sbin/nologin", "-G", group, admin])
            try Self.tool("/usr/sbin/useradd", ["-M", "-s", "/usr/sbin/nologin", "-G", group, staff])
            try ConsoleFixture.writeTwoSchools(into: dir)
            try FileManager.default.copyItem(atPath: Binaries.path("timetrack-admin"), toPath: binary)
            try FileManager.default.createDirectory(atPath: dir.path("shared"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: dir.path("out-admin"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: dir.path("out-staff"), withIntermediateDirectories: true)
            // Everything readable by the group; the shared folder and outputs writable by it.
            try Self.tool("/bin/chgrp", ["-R", group, dir.url.path])
            try Self.tool("/bin/chmod", ["-R", "g+rwX", dir.url.path])
            try Self.tool("/bin/chmod", ["g+s", dir.path("shared")])
        }

        func remove() {
            _ = try? Self.tool("/usr/sbin/userdel", [admin])
            _ = try? Self.tool("/usr/sbin/userdel", [staff])
            _ = try? Self.tool("/usr/sbin/groupdel", [group])
            dir.remove()
        }

        @discardableResult
        static func tool(_ path: String, _ arguments: [String]) throws -> Binaries.Result {
            let result = try Binaries.runPath(path, arguments)
            guard result.status == 0 else { throw NSError(domain: path, code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
            return result
        }

        /// Runs the binary as `account` (its own uid, gid and groups).
        func run(as account: String, _ arguments: [String]) throws -> Binaries.Result {
            guard let entry = getpwnam(account) else { throw NSError(domain: "no account \(account)", code: 1) }
            let (uid, gid) = (entry.pointee.pw_uid, entry.pointee.pw_gid)
            return try Binaries.runPath(
                "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--init-groups", binary, "--store", store, "--imports", imports] + arguments,
                currentDirectory: dir.url.path)
        }

        func json(as account: String, _ arguments: [String]) throws -> Any? {
            try JSONSerialization.jsonObject(with: Data(try run(as: account, ["--json"] + arguments).stdout.utf8))
        }

        func ids(_ kind: String, school: String) throws -> [String] {
            ((try json(as: admin, ["list", kind, "--limit", "1000"])) as? [[String: Any]] ?? [])
                .filter { ($0["school"] as? String) == school }.compactMap { $0["id"] as? String }
        }
    }

    /// Names and texts of private records: none may reach a staff member of another school, and
    /// none may reach any export.
    static let lincolnSecrets = ["Riley Quist", "Custody hearing", "never Chris"]
    static let allPrivate = lincolnSecrets + ["Jordan Lee", "Avery Chen", "Grandmother's funeral", "Sam Ortiz", "Which period is B lunch"]

    @Test func anAdminAndAStaffMemberOfOneSchoolEachMayDoTheirPartOnly() throws {
        if let reason = Machine.skipReason {
            try Skip.because(reason)
            return
        }
        let m = try Machine()
        defer { m.remove() }
        // The first account to use the store makes it (0660 in the staff group) and is its admin.
        let first = try m.run(as: m.admin, ["--group", m.group, "import", "--all"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("\(m.admin) (the account \(m.admin)) is this store's first operator, and an admin"), "\(first.stderr)")
        var info = stat()
        #expect(stat(m.store, &info) == 0 && info.st_mode & 0o777 == 0o660 && info.st_gid == getgrnam(m.group)?.pointee.gr_gid)
        // Before being added, the staff account is nobody here.
        let stranger = try m.run(as: m.staff, ["list", "absences"])
        #expect(stranger.status != 0)
        #expect(stranger.stderr.contains("the account \(m.staff) is not an operator of this store"))
        #expect(stranger.stderr.contains("operator add NAME --role staff --login \(m.staff)"))
        #expect(try m.run(as: m.admin, ["operator", "add", "sam", "--role", "staff", "--login", m.staff, "--school", "hillcrest"]).status == 0)

        let ourAbsence = try #require(try m.ids("absences", school: "hillcrest").first)
        let theirAbsence = try #require(try m.ids("absences", school: "lincoln").first)
        let theirTicket = try #require(try m.ids("tickets", school: "lincoln").first)
        let ourTicket = try #require(try m.ids("tickets", school: "hillcrest").first)
        let posts = try m.ids("posts", school: "hillcrest")
        let announcements = try m.ids("announcements", school: "hillcrest")
        #expect(posts.count >= 3 && announcements.count >= 2)

        // Every command, both ways: what the staff member runs and may, what the admin runs and
        // may (a decision each on its own item, so neither finds it already decided).
        func both(_ words: [String], staff: Bool, admin: Bool) -> ([String], Bool, [String], Bool) { (words, staff, words, admin) }
        let cases: [([String], Bool, [String], Bool)] = [
            both(["status"], staff: true, admin: true),
            both(["list", "absences"], staff: true, admin: true),
            both(["show", ourAbsence], staff: true, admin: true),
            both(["show", theirAbsence], staff: false, admin: true),
            both(["history", theirTicket], staff: false, admin: true),
            both(["show", announcements[0]], staff: false, admin: true),  // pending imported content: admins only
            (["approve", posts[0]], true, ["approve", posts[1]], true),
            both(["approve", announcements[0]], staff: false, admin: true),
            both(["edit", announcements[1], "title=Changed"], staff: false, admin: true),
            both(["reject", theirAbsence, "--reason", "no"], staff: false, admin: true),
            both(["reply", ourTicket, "B lunch is 4th period."], staff: true, admin: true),
            both(["reply", theirTicket, "Noted."], staff: false, admin: true),
            both(["review"], staff: true, admin: true),
            both(["import", "hillcrest-news"], staff: false, admin: true),
            both(["runs"], staff: false, admin: true),
            both(["audit"], staff: false, admin: true),
            both(["audit", "verify"], staff: false, admin: true),
            both(["operator", "list"], staff: false, admin: true),
            both(["operator", "add", "vic", "--role", "viewer"], staff: false, admin: true),
            both(["export", "--format", "json", "--out", "OUT"], staff: true, admin: true),
            both(["export", "--format", "json", "--kind", "absences", "--out", "OUT/absences.json"], staff: false, admin: false),
        ]
        for (staffWords, staffMay, adminWords, adminMay) in cases {
            // Staff go first, so what the admin then does is still there to refuse to staff.
            for (account, words, may, out) in [(m.staff, staffWords, staffMay, "out-staff"), (m.admin, adminWords, adminMay, "out-admin")] {
                let result = try m.run(as: account, words.map { $0.replacingOccurrences(of: "OUT", with: m.dir.path(out)) })
                if may {
                    #expect(result.status == 0, "\(account) \(words): \(result.stderr)")
                } else {
                    #expect(result.status != 0, "\(account) \(words) was allowed: \(result.stdout)")
                    #expect(!result.stderr.contains("--as"), "\(result.stderr)")
                }
            }
        }

        // Staff read what is published, not a change waiting for review, nor unpublished versions.
        // (a change from the source, waiting for review: the news page now says "Secret draft")
        let shown = try m.json(as: m.admin, ["show", announcements[0]]) as? [String: Any]
        let title = try #require((shown?["fields"] as? [String: Any])?["title"] as? String)
        for file in FileManager.default.enumerator(atPath: m.imports)?.compactMap({ $0 as? String }).filter({ $0.hasSuffix(".html") }) ?? [] {
            let path = m.imports + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if text.contains(title) { try text.replacingOccurrences(of: title, with: "Secret draft").write(toFile: path, atomically: true, encoding: .utf8) }
        }
        #expect(try m.run(as: m.admin, ["import", "hillcrest-news"]).status == 0)
        for words in [
            ["show", announcements[0]], ["--json", "show", announcements[0]], ["history", announcements[0]], ["--json", "history", announcements[0]],
        ] {
            let seen = try m.run(as: m.staff, words)
            #expect(seen.status == 0 && !seen.stdout.contains("Secret draft"), "\(words): \(seen.stdout)")
        }
        #expect(try m.run(as: m.admin, ["show", announcements[0]]).stdout.contains("Secret draft"))
        // Staff never see another school's private records: text, JSON, review queue.
        for words in [
            ["list", "absences"], ["--json", "list", "absences"], ["--json", "list", "tickets"], ["review"], ["--json", "review"], ["list", "--limit", "1000"],
        ] {
            let result = try m.run(as: m.staff, words)
            for secret in Self.lincolnSecrets + ["Pickup arrangements"] { #expect(!result.stdout.contains(secret), "\(words) shows \(secret)") }
        }
        #expect(try m.run(as: m.staff, ["list", "absences"]).stdout.contains("Jordan Lee"))
        // No export contains an absence report or a ticket, whoever wrote it.
        for out in ["out-admin", "out-staff"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: m.dir.path(out))
            #expect(files.sorted() == ["alerts.json", "announcements.json", "deadlines.json", "events.json", "posts.json", "school-info.json"])
            for file in files {
                let text = try String(contentsOfFile: m.dir.path("\(out)/\(file)"), encoding: .utf8)
                for secret in Self.allPrivate { #expect(!text.contains(secret), "\(out)/\(file) contains \(secret)") }
            }
        }

        // --as: refused to staff (the refusal says how to get the right, not how around it);
        // an admin's is recorded under both names.
        let sneaky = try m.run(as: m.staff, ["--as", m.admin, "approve", announcements[2]])
        #expect(sneaky.status != 0)
        #expect(sneaky.stderr.contains("only admins may act as another operator"))
        #expect(try m.run(as: m.admin, ["--as", "sam", "approve", posts[2]]).status == 0)
        let audit = try m.json(as: m.admin, ["audit", "--limit", "1"]) as? [[String: Any]]
        #expect(audit?.first?["operatorName"] as? String == "sam (by \(m.admin))")
        // Removed: the account is nobody again; the audit keeps the name.
        #expect(try m.run(as: m.admin, ["operator", "remove", "sam"]).status == 0)
        #expect(try m.run(as: m.staff, ["status"]).stderr.contains("is not an operator of this store"))
        #expect(try m.run(as: m.admin, ["audit", "verify"]).status == 0)
    }
}
