import TimeTrackCore

/// A plain text table that fits a width: the widest columns are cut with `…` when needed,
/// never the columns a person must read or type whole (`whole`).
public struct Table {
    public var headers: [String]
    public var rows: [[String]]
    /// Columns never cut: ids (typed next), states and markers (a guessed time's `?`).
    public var whole: Set<Int>

    /// Headers whose columns are whole by default.
    static let wholeHeaders: Set<String> = ["id", "#", "run", "item", "status", "state", "result", "due", "when", "role", "active", ""]

    public init(headers: [String], rows: [[String]] = []) {
        self.headers = headers
        self.rows = rows
        whole = Set(headers.indices.filter { Table.wholeHeaders.contains(headers[$0].lowercased()) })
    }

    /// The table as lines no wider than `width` columns (when possible), counted as a terminal
    /// shows them: a Chinese or Korean name, or an emoji, takes two columns a character.
    public func render(width: Int) -> [String] {
        let all = [headers] + rows
        var widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0 }
        // Too wide: the widest columns are cut to one cap, the largest (at least 8) under which
        // the table fits; found by halving, so the cost does not grow with a cell's length.
        // The whole columns are taken out of the budget first; the others share what is left.
        let kept = widths.indices.filter { whole.contains($0) }.reduce(0) { $0 + widths[$1] }
        let budget = width - 2 * (widths.count - 1) - kept
        let cuttable = widths.indices.filter { !whole.contains($0) }
        if cuttable.reduce(0, { $0 + widths[$1] }) > budget {
            var (low, high) = (2, max(2, cuttable.map { widths[$0] }.max() ?? 2))
            while low < high {
                let cap = (low + high + 1) / 2
                if cuttable.reduce(0, { $0 + min(widths[$1], cap) }) <= budget { low = cap } else { high = cap - 1 }
            }
            for column in cuttable { widths[column] = min(widths[column], low) }
        }
        func format(_ row: [String]) -> String {
            row.indices.map { column -> String in
                var cell = row[column]
                var cellWidth = DisplayWidth.of(cell)
                // A row with more cells than the headers shows the extra ones as they are.
                let limit = column < widths.count ? widths[column] : cellWidth
                if cellWidth > limit {
                    cell = DisplayWidth.prefix(cell, columns: max(1, limit - 1)) + "…"
                    cellWidth = DisplayWidth.of(cell)
                }
                guard column < row.count - 1 else { return cell }
                return cell + String(repeating: " ", count: max(0, limit - cellWidth))
            }.joined(separator: "  ")
        }
        return [format(headers)] + rows.map(format)
    }
}
