/// A plain text table that fits a width: the widest column is cut with `…` when needed.
public struct Table {
    public var headers: [String]
    public var rows: [[String]]

    public init(headers: [String], rows: [[String]] = []) {
        self.headers = headers
        self.rows = rows
    }

    /// The table as lines no wider than `width` (when possible).
    public func render(width: Int) -> [String] {
        let all = [headers] + rows
        var widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        let total = widths.reduce(0, +) + 2 * (widths.count - 1)
        if total > width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }) {
            widths[widest] = max(8, widths[widest] - (total - width))
        }
        func format(_ row: [String]) -> String {
            row.indices.map { column -> String in
                var cell = row[column]
                if cell.count > widths[column] { cell = String(cell.prefix(max(1, widths[column] - 1))) + "…" }
                return column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return [format(headers)] + rows.map(format)
    }
}
