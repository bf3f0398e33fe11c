import TimeTrackCore

extension Session {
    /// The session's operator, checked against the store. On a store with no operators yet, the
    /// current operator becomes its first admin.
    func currentOperator(in store: any ItemStore) throws -> Operator {
        if let op = try store.operatorNamed(operatorName) { return op }
        if try store.operators().isEmpty, let op = try store.claimFirstAdmin(operatorName) {
            if !output.json { output.note("\(operatorName) is this store's first operator, and an admin") }
            return op
        }
        // Another process may have become the first admin between the two questions.
        if let op = try store.operatorNamed(operatorName) { return op }
        throw TimeTrackError(
            .permission, "\(operatorName) is not an operator of this store",
            fix: "an admin can add you with `operator add \(operatorName) --role staff`; or pass --as NAME")
    }

    /// Refuses a decision on an item of `kind` unless the operator may make it: admins decide
    /// everything; staff decide posts, absence reports and tickets.
    func requireDecision(on kind: ItemKind, action: String, in store: any ItemStore) throws {
        let op = try currentOperator(in: store)
        if op.role == .admin || !kind.isImportedContent { return }
        throw TimeTrackError(
            .permission, "only admins may \(action) \(kind.plural); \(op.name) is staff",
            fix: "staff review posts, absence reports and tickets; ask an admin, or run as one with --as NAME")
    }
}
