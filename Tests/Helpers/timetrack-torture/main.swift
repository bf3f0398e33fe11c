// A helper for store tests: hammers a real store file from a separate process so tests can run
// concurrent writers and SIGKILL a writer in the middle of its decisions.
//
//   timetrack-torture edit-loop STORE ITEM COUNT   edit ITEM's title COUNT times (one decision each)
//   timetrack-torture writer STORE COUNT TAG       submit and approve COUNT announcements
//   timetrack-torture sql STORE QUERY              print the first column of each row (tests read stores with it)
import Foundation
import TimeTrackCore
import TimeTrackReview
import TimeTrackStore

let args = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

do {
    switch (args.first, args.count) {
    case ("edit-loop", 4):
        let store = try SQLiteStore(path: args[1], create: false)
        guard let count = Int(args[3]) else { fail("COUNT must be a number") }
        for i in 0..<count {
            _ = try Lifecycle(store).edit(args[2], changes: ["title": .string("version \(i) \(UUID().uuidString)")], by: "torture", reason: nil)
            if i == 0 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
        }
        print("done \(count)")
    case ("writer", 4):
        let store = try SQLiteStore(path: args[1], create: true)
        guard let count = Int(args[2]) else { fail("COUNT must be a number") }
        for i in 0..<count {
            let item = try Lifecycle(store).submit(.announcement(Announcement(title: "\(args[3]) \(i)")), school: nil, by: "writer-\(args[3])", note: nil)
            _ = try Lifecycle(store).approve(item.id, by: "writer-\(args[3])")
        }
        print("done \(count)")
    case ("sql", 3):
        let store = try SQLiteStore(path: args[1], create: false)
        for line in try store.firstColumn(args[2]) { print(line) }
    default:
        fail("usage: timetrack-torture edit-loop STORE ITEM COUNT | writer STORE COUNT TAG")
    }
} catch {
    fail("timetrack-torture: \(error)")
}
