import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport

/// Every number a definition or the settings file holds, fed values that trap a careless
/// `Int(_:)`: a refusal naming the file and the field, never a crash.
@Suite struct HostileNumberTests {
    static let hostile = ["1e300", "-1e300", "-1", "0", "0.5", "9223372036854775807", "1e999", "\"inf\"", "\"nan\"", "\"12\"", "null", "[]"]

    /// The smallest options each importer needs besides the number under test.
    static func baseOptions(_ importer: String) -> String {
        switch importer {
        case "html": return #""item": "article", "fields": { "title": "h2" }, "#
        case "json": return #""fields": { "title": "t" }, "#
        default: return ""
        }
    }

    @Test func everyNumericOptionOfEveryImporter() throws {
        let dir = try TemporaryDirectory("numbers")
        defer { dir.remove() }
        var checked = 0
        for type in ImporterRegistry.all {
            let info = type.info
            for option in info.options where option.type == "number" {
                for value in Self.hostile {
                    let kind = info.kinds.first?.rawValue ?? "announcement"
                    let path = try dir.write(
                        "d.json",
                        """
                        { "id": "d", "importer": "\(info.name)", "kind": "\(kind)", "url": "p.html",
                          "options": { \(Self.baseOptions(info.name)) "\(option.name)": \(value) } }
                        """)
                    do {
                        let source = try SourceDefinition.load(file: path)
                        _ = try ImporterRegistry.make(for: source)
                        // Of these values only 0 is a whole number some option's range holds.
                        #expect(value == "0", "\(info.name) options.\(option.name) accepted \(value)")
                    } catch let error as TimeTrackError {
                        #expect(error.context["file"] == path)
                        #expect(
                            error.context["field"]?.contains(option.name) == true || error.message.contains("JSON"),
                            "\(info.name).\(option.name)=\(value): \(error)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 8 * Self.hostile.count)
    }

    @Test func everySchedule() throws {
        for text in [
            "infh", "inf", "nanm", "1e300d", "-1h", "0h", "0.0001m", "9999999999d", "daily 24:00", "daily -1:30", "daily 9223372036854775807:00", "", "h",
            "1e-300m",
        ] {
            #expect(Schedule(text) == nil, "\(text) was accepted")
        }
        #expect(Schedule("6h") == .every(21_600))
        #expect(Schedule("daily 05:30") == .daily(hour: 5, minute: 30))
        // What is accepted prints back without a trap.
        for text in ["5m", "365d", "1.5h", "hourly", "daily"] { #expect(Schedule(text)?.description.isEmpty == false) }
    }

    @Test func everyNetworkSetting() throws {
        let dir = try TemporaryDirectory("settings")
        defer { dir.remove() }
        for key in ["requestDelay", "connectTimeout", "totalTimeout", "maxPageMB", "maxRedirects", "retries", "retryDelay", "sourceSeconds", "runSeconds"] {
            for value in ["1e300", "-1", "1e999", "\"inf\"", "9223372036854775807"] {
                try dir.write("_settings.json", "{ \"\(key)\": \(value) }")
                let error = try #require(throws: TimeTrackError.self, "\(key)=\(value)") { try FetchSettings.load(folder: dir.url.path) }
                #expect(error.context["field"] == key || error.message.contains("JSON"), "\(key)=\(value): \(error)")
            }
        }
    }
}
