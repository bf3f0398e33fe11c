import Foundation
import TimeTrackCore

/// Who is working, and what they may do.
///
/// Identity is peer authentication, as PostgreSQL does it on a local socket: the operator is the
/// active one whose `login` is the Unix account running the tool (`getpwuid(geteuid())`). The
/// first account to use a new store becomes its admin. `--as NAME` is an admin acting as another
/// operator: allowed to admins only, and recorded as `NAME (by ADMIN)`. On PostgreSQL the account
/// is the database role the server authenticated (`session_user`), whatever the Unix account.
extension Session {
    /// The Unix account running the tool (the effective user), by name; `uid N` when the
    /// account has no name.
    public static var account: String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// The session's operator, checked against the store once per session; sets the name that
    /// decisions are recorded under.
    ///
    /// On a store with no operators yet, the account becomes its first admin (named by `--as`, when
    /// given).
    func currentOperator(in store: any ItemStore) throws -> Operator {
        if let resolved { return resolved }
        // A store that authenticates (PostgreSQL: the database role) names the account itself.
        let account = store.account ?? Session.account
        var me = try store.operatorWithLogin(account)
        if me == nil, try store.operators().isEmpty, let first = try store.claimFirstAdmin(actingAs ?? Session.defaultName(account), login: account) {
            if !output.json { output.note("\(first.name) (the account \(account)) is this store's first operator, and an admin") }
            me = first
        }
        // Another process may have become the first admin between the two questions.
        if me == nil { me = try store.operatorWithLogin(account) }
        guard let me else {
            throw TimeTrackError(
                .permission, "the account \(account) is not an operator of this store",
                fix:
                    "an admin can add it: `timetrack-admin operator add NAME --role staff --login \(account)` (for cron: `operator add cron --role"
                    + " importer --login \(account)`)"
            )
        }
        var acting = me
        operatorName = me.name
        if let name = actingAs, name != me.name {
            guard me.role == .admin else {
                throw TimeTrackError(
                    .permission, "only admins may act as another operator (--as); \(me.name) is \(me.role.rawValue)",
                    fix: "leave out --as: you work as yourself (\(me.name)); an admin can change your role with `operator role \(me.name) ROLE`")
            }
            guard let other = try store.operatorNamed(name), other.active else {
                throw TimeTrackError(
                    .usage, "no active operator \(name) to act as", fix: "`operator list` shows them; `operator add \(name) --role ROLE` adds one")
            }
            // Recorded as the store spells the name (`--as SAM` is sam on a store that ignores case).
            if other.name != me.name {
                acting = other
                operatorName = "\(other.name) (by \(me.name))"
            }
        }
        resolved = acting
        return acting
    }

    /// A name for an account as an operator (accounts may hold characters names may not).
    static func defaultName(_ account: String) -> String {
        Operator.isValidName(account) ? account : "operator"
    }

    /// The session's access rules.
    func access(in store: any ItemStore) throws -> Access { Access(try currentOperator(in: store)) }

    /// Refuses a decision on an item unless the operator may make it.
    func requireDecision(on kind: ItemKind, school: String?, action: String, in store: any ItemStore) throws {
        let access = try access(in: store)
        guard !access.mayDecide(kind, school: school) else { return }
        let op = access.op
        let scope = op.schools.isEmpty ? "" : " of " + op.schools.joined(separator: ", ")
        throw TimeTrackError(
            .permission, "\(op.name) (\(op.role.rawValue)\(scope)) may not \(action) \(kind.plural)" + (school.map { " of \($0)" } ?? ""),
            fix: "\(Access.whoMay(decide: kind)) may; an admin can change your role or schools (`operator add \(op.name) --role R --school S`)")
    }

    /// Refuses to show an item the operator may not read (absence reports and tickets are private).
    func requireRead(_ item: Item, in store: any ItemStore) throws {
        let access = try access(in: store)
        guard !access.mayRead(item.kind, status: item.status, school: item.school) else { return }
        let op = access.op
        throw TimeTrackError(
            .permission, "\(op.name) (\(op.role.rawValue)) may not read \(item.id)",
            fix: item.kind.traits.exported
                ? "viewers and staff read published items; an admin can change your role"
                : "\(item.kind.plural) are private: only admins and staff of the item's school read them")
    }

    /// Refuses the action unless the operator may administer the store (operators, audit).
    func requireAdmin(in store: any ItemStore, for action: String) throws {
        let op = try currentOperator(in: store)
        guard op.role != .admin else { return }
        throw TimeTrackError(
            .permission, "only admins may \(action); \(op.name) is \(op.role.rawValue)",
            fix: "ask an admin to do it, or to make you one (`operator role \(op.name) admin`)")
    }

    /// Refuses to run imports unless the operator is an admin or an importer.
    func requireImport(in store: any ItemStore) throws {
        let access = try access(in: store)
        guard !access.mayImport else { return }
        throw TimeTrackError(
            .permission, "only admins and importers may run imports; \(access.op.name) is \(access.op.role.rawValue)",
            fix: "ask an admin; for cron, an admin adds the account cron runs as: `operator add cron --role importer --login ACCOUNT`")
    }

    /// A page of `query` as the operator may see it: admins see everything; others see only
    /// what they may read (or, `deciding`, decide), the page counted among those items.
    func listVisible(_ query: ItemQuery, in store: any ItemStore, deciding: Bool = false) throws -> [ItemSummary] {
        let access = try access(in: store)
        if access.op.role == .admin { return try store.list(query) }
        func allowed(_ s: ItemSummary) -> Bool {
            deciding ? access.mayDecide(s.kind, school: s.school) : access.mayRead(s.kind, status: s.status, school: s.school)
        }
        var found: [ItemSummary] = []
        var page = query
        page.offset = 0
        page.limit = 1_000
        var skip = query.offset
        while true {
            let rows = try store.list(page)
            for row in rows where allowed(row) {
                if skip > 0 { skip -= 1; continue }
                found.append(row)
                if found.count == query.limit { return found }
            }
            if rows.count < page.limit { return found }
            page.offset += page.limit
        }
    }
}
