import Foundation
import TimeTrackCore

extension SourceDefinition {
    /// Refuses options the importer does not know, naming the file, the option and the known ones.
    public func checkOptions(_ info: ImporterInfo) throws {
        for key in options.keys where !info.options.contains(where: { $0.name == key }) {
            throw error(
                "options.\(key)", "is not an option of the \(info.name) importer",
                fix: info.options.isEmpty ? "it takes no options" : "options: " + info.options.map(\.name).joined(separator: ", "))
        }
    }

    /// A whole-number option in a range, or the default when absent.
    public func intOption(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let value = options[name] else { return fallback }
        // Checked as a Double first: 1e300, inf and nan never reach Int(_:), which would trap.
        guard let n = value.numberValue, n.isFinite, n.rounded() == n,
            n >= Double(range.lowerBound), n <= Double(range.upperBound), let whole = Int(exactly: n)
        else {
            throw error("options.\(name)", "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }

    /// A true/false option, or the default when absent.
    public func boolOption(_ name: String, default fallback: Bool = false) throws -> Bool {
        guard let value = options[name] else { return fallback }
        guard let b = value.boolValue else { throw error("options.\(name)", "must be true or false") }
        return b
    }

    /// Checks `options.year` when given: a year from 1900 to 2199, or a text naming one or a
    /// range ("October 2022 – June 2023").
    public func checkYearOption() throws {
        guard let year = options["year"] else { return }
        let fine: Bool
        switch year {
        case .number(let number): fine = number.isFinite && (1900...2199).contains(number) && number == number.rounded()
        case .string(let text): fine = YearHint.read(text) != nil
        default: fine = false
        }
        guard fine else {
            throw error(
                "options.year", "must be a year from 1900 to 2199, or a text naming one (\"October 2022 – June 2023\")",
                fix: "or use yearFrom to read it from the page")
        }
    }
}
