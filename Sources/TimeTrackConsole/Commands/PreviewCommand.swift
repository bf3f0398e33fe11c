import Foundation
import TimeTrackCore
import TimeTrackExport

extension Console {
    static var previewCommand: CommandSpec { PreviewCommand.spec }

    struct PreviewCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "preview", summary: "write a page showing items as the app shows them (published ones; --pending: what review would publish)")
        @Positional("[ID...]", count: 0...10_000, completes: [.ids]) var words: [String]
        @Flag("pending", help: "show the pending content of items waiting for review") var pending: Bool
        @Flag("published", help: "show what the app shows now (the default): published, live and not expired") var published: Bool
        @Option("out", value: "DIR", completes: .path, help: "the folder for index.html (default ./timetrack-preview)") var out: String?
        @Flag("no-open", help: "do not open it in a browser, only print its path") var noOpen: Bool

        func run(_ session: Session) throws -> Int32 {
            if pending && published {
                throw TimeTrackError(.usage, "preview: --published or --pending, not both", fix: "usage: preview [ID...] [--published | --pending]")
            }
            let store = try session.store()
            var chosen: [(id: String, content: ItemContent, zone: TimeZone)] = []
            var schools: [String: String] = [:]
            if !words.isEmpty {
                for id in words {
                    let item = try store.item(id)
                    try session.requireRead(item, in: store)
                    guard item.kind.traits.exported else {
                        throw TimeTrackError(
                            .usage, "\(id) is \(item.kind.rawValue == "absence" ? "an absence report" : "a ticket"): private, never shown in the app",
                            fix: "preview announcements, events, school info and posts")
                    }
                    chosen.append((item.id, item.pendingContent ?? item.content, session.zone(of: item)))
                    schools[item.id] = item.school
                }
            } else {
                for kind in ItemKind.allCases where kind.traits.exported {
                    var query = ItemQuery(kind: kind, status: pending ? nil : .published, needsReview: pending, limit: 10_000)
                    query.offset = 0
                    // listVisible leaves out what the operator may not read.
                    for row in try session.listVisible(query, in: store) {
                        let item = try store.item(row.id)
                        // What the app shows: an announcement past its expiry is no longer there.
                        if !pending && !item.content.isShowable(at: Date()) { continue }
                        chosen.append((item.id, pending ? (item.pendingContent ?? item.content) : item.content, session.zone(of: item)))
                        schools[item.id] = item.school
                    }
                }
            }
            var preview = Preview(items: chosen, zone: session.districtZone)
            preview.title = pending ? "Time Track preview: what review would publish" : "Time Track preview"
            preview.places = try store.places()
            preview.schools = schools
            preview.inlinePictures = PreviewPictures.inline(chosen.map(\.content), session: session)
            let folder = out ?? "timetrack-preview"
            let path = (folder as NSString).appendingPathComponent("index.html")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try AtomicFile.write(Data(preview.html().utf8), to: path)
            session.output.line("wrote \(path): \(preview.items.count) item\(preview.items.count == 1 ? "" : "s")")
            let environment = ProcessInfo.processInfo.environment
            let desktop = environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
            if desktop && isatty(1) == 1 && !noOpen && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open") {
                let open = Process()
                open.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
                open.arguments = [path]
                open.standardOutput = FileHandle.nullDevice
                open.standardError = FileHandle.nullDevice
                try? open.run()
            }
            return 0
        }
    }

}
