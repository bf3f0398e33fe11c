import Foundation
import TimeTrackCore

/// The data a page's script carries, as JSON, read without running JavaScript.
///
/// - plain JSON (`<script type="application/json">`, `__NEXT_DATA__`, a hidden input's value);
/// - Next.js app-router pushes, `self.__next_f.push([1, "…"])`: the strings joined, then read
///   whole or line by line (`5:{"alerts":[]}`), every line that is JSON;
/// - Nuxt 3 `__NUXT_DATA__`: devalue's flat array, where numbers in objects and arrays are
///   indexes into it, resolved from its first element;
/// - Nuxt 2 `window.__NUXT__=(function(a,b,…){return {…}}(1,"x",…))`: the object literal
///   read with the function's parameters bound to its arguments.
///
/// Every reading is bounded: `maxValues` values at most, nesting `maxDepth` deep.
public enum PageData {
    static let maxValues = 1_000_000
    static let maxDepth = 200

    /// Whether `text` is a script's state rather than JSON: Next's pushes or Nuxt 2's assignment.
    public static func isScriptState(_ text: String) -> Bool {
        text.contains("self.__next_f.push(") || text.contains("__NUXT__=") || text.contains("__NUXT__ =")
    }

    /// The JSON in `text`, or nil when none of the forms above reads it.
    public static func decode(_ text: String, nuxtData: Bool = false) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("self.__next_f.push(") { return flight(trimmed) }
        if let nuxt = trimmed.range(of: "__NUXT__") {
            var rest = trimmed[nuxt.upperBound...].drop { $0 == " " }
            guard rest.first == "=" else { return nil }
            rest = rest.dropFirst()
            var reader = ScriptLiteral(String(rest))
            return reader.program()
        }
        guard let value = try? JSONValue(parsing: Data(trimmed.utf8)) else { return nil }
        if nuxtData, case .array(let table) = value { return Devalue(table: table).resolve() }
        return value
    }

    /// Next.js flight: the pushed strings joined; the whole text as JSON, else each line's
    /// payload after its `id:` that is JSON (a list of them, or the one).
    static func flight(_ text: String) -> JSONValue? {
        var joined = ""
        var search = text.startIndex..<text.endIndex
        while let push = text.range(of: "self.__next_f.push(", range: search) {
            var reader = ScriptLiteral(String(text[push.upperBound...]))
            if case .array(let parts)? = reader.value(depth: 0), parts.count >= 2, case .string(let chunk) = parts[1] { joined += chunk }
            search = push.upperBound..<text.endIndex
            if joined.utf8.count > 20_000_000 { break }
        }
        if let whole = try? JSONValue(parsing: Data(joined.utf8)) { return whole }
        var values: [JSONValue] = []
        for line in joined.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), line.distance(from: line.startIndex, to: colon) <= 8 else { continue }
            let payload = line[line.index(after: colon)...]
            guard payload.first == "{" || payload.first == "[", let value = try? JSONValue(parsing: Data(payload.utf8)) else { continue }
            values.append(value)
        }
        return values.isEmpty ? nil : values.count == 1 ? values[0] : .array(values)
    }
}

/// Nuxt 3's devalue table: element 0 is the root; in an object or an array, a number is the
/// index of the value; `["Reactive", i]`, `["ShallowReactive", i]`, `["Ref", i]` and the like
/// wrap one value, `["Date", text]` is a date, `["Set", …]` a list; -1 is undefined.
struct Devalue {
    let table: [JSONValue]
    private var count = 0

    init(table: [JSONValue]) { self.table = table }

    func resolve() -> JSONValue? {
        var copy = self
        return table.isEmpty ? nil : copy.value(at: 0, depth: 0)
    }

    static let wrappers: Set<String> = ["Reactive", "ShallowReactive", "Ref", "ShallowRef", "EmptyRef", "EmptyShallowRef", "NuxtError", "Object"]

    mutating func value(at index: Int, depth: Int) -> JSONValue {
        count += 1
        guard index >= 0, index < table.count, depth < PageData.maxDepth, count < PageData.maxValues else { return .null }
        switch table[index] {
        case .array(let list):
            if case .string(let tag)? = list.first {
                if Devalue.wrappers.contains(tag), list.count == 2, let inner = list[1].numberValue { return value(at: Int(inner), depth: depth + 1) }
                if tag == "Date", list.count == 2 { return list[1] }
                if tag == "Set" { return .array(list.dropFirst().compactMap { $0.numberValue.map { value(at: Int($0), depth: depth + 1) } }) }
                if tag == "null" { return .null }
            }
            return .array(list.map { $0.numberValue.map { value(at: Int($0), depth: depth + 1) } ?? .null })
        case .object(let object):
            var out: [String: JSONValue] = [:]
            for (key, reference) in object { out[key] = reference.numberValue.map { value(at: Int($0), depth: depth + 1) } ?? .null }
            return .object(out)
        case let plain:
            return plain
        }
    }
}
