import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore
@testable import TimeTrackReview

/// Issue 46's rules over thousands of random sequences.
///
/// The sequences mix imports (an alert source and a news source, each run applying what is due
/// as cron does), decisions (approve, reject, archive, restore, keep, edits of times) and clock
/// steps, and check:
/// - no alert stays published (or scheduled) after a run that did not find it;
/// - after a run, no item is published past its `expiresAt` or before its `publishAt`, and none
///   is scheduled past its `publishAt`;
/// - at any moment, what the app is given (published and showable) is neither expired nor early.
@Suite struct AlertTimePropertyTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// One random sequence's world: the store, its clock, and what each source shows now.
    struct World {
        let repo = InMemoryRepository()
        let clock = TestClock(AlertTimePropertyTests.start)
        var random: SplitMix64
        var posted: [String: ItemContent] = [:]  // alert key → what the pop-up says now
        var news: [String: ItemContent] = [:]
        var checked = 0
        var published = 0
        var scheduled = 0
        /// Every item the imports made.
        var ids: [String] = []
        /// Alerts a person restored after their source dropped them, until it posts them again:
        /// a run that still does not find them leaves the person's decision alone.
        var restoredByPerson: Set<String> = []

        init(seed: UInt64) {
            random = SplitMix64(state: seed)
            repo.now = { [clock] in clock.now }
        }

        var life: Lifecycle { Lifecycle(repo) }

        /// A time within a few hours of now, or none.
        mutating func time(_ percent: Int) -> Date? {
            random.chance(percent) ? clock.now.addingTimeInterval(Double(random.int(-7_200...14_400))) : nil
        }

        mutating func changeSources() {
            let key = "alert-\(random.int(1...3))"
            if random.chance(50) {
                posted[key] = nil
            } else {
                let expires = clock.now.addingTimeInterval(Double(random.int(-3_600...18_000)))
                var alert = Alert(title: "Closure \(key)", severity: .emergency, expiresAt: expires)
                alert.publishAt = time(30)
                posted[key] = .alert(alert)
            }
            let story = "news-\(random.int(1...2))"
            news[story] = random.chance(20) ? nil : Samples.announcement(story).withTimes(ItemTimes(publishAt: time(30), expiresAt: time(40)))
        }

        /// One import of each source, then what is due, as `import --due` runs them.
        mutating func run() throws {
            for (source, shown) in [("alerts", posted), ("news", news)] {
                for (key, content) in shown.sorted(by: { $0.key < $1.key }) where content.validate().isEmpty {
                    let id = try life.recordImported(
                        ImportedRecord(key: key, content: content, school: nil, provenance: Samples.provenance(source)), runID: nil, by: "import:\(source)"
                    ).id
                    if !ids.contains(id) { ids.append(id) }
                }
                let seen = Set(shown.filter { $0.value.validate().isEmpty }.keys)
                // Seen again: the next run that lacks it withdraws it, whatever a person did before.
                if source == "alerts" { restoredByPerson.subtract(seen) }
                _ = try life.recordPresence(sourceID: source, seenKeys: seen, runID: nil)
            }
            _ = try life.applyDue(by: "cron")
            try checkAfterRun()
        }

        mutating func decide() throws {
            guard !ids.isEmpty else { return }
            let id = ids[random.int(0...ids.count - 1)]
            switch random.int(0...6) {
            case 0, 1: _ = try? life.approve(id, by: "ana")
            case 2: _ = try? life.reject(id, reason: "no", by: "ana")
            case 3: _ = try? life.archive(id, by: "ana", reason: nil)
            case 4:
                let before = try repo.row(id: id)
                if (try? life.restore(id, by: "ana")) != nil, before?.status == .withdrawn, let key = before?.sourceKey { restoredByPerson.insert(key) }
            case 5: _ = try? life.keep(id, by: "ana")
            default:
                let field = ["publishAt", "expiresAt", "reviewBy"].randomElement(using: &random) ?? "publishAt"
                let value = time(80).map { JSONValue.string(StoreDate.format($0)) } ?? .null
                _ = try? life.edit(id, changes: [field: value], by: "ana", reason: nil)
            }
        }

        /// After a run: every alert its source no longer shows is out of the app, and statuses
        /// agree with the times.
        mutating func checkAfterRun() throws {
            let now = clock.now
            for key in ["alert-1", "alert-2", "alert-3"] where posted[key] == nil && !restoredByPerson.contains(key) {
                guard let row = try repo.row(sourceID: "alerts", key: key) else { continue }
                #expect(row.status != .published && row.status != .scheduled, "\(row.id) \(row.status) after a run that did not find it")
            }
            for id in ids {
                checked += 1
                guard let row = try repo.row(id: id), let live = row.liveRevision else { continue }
                let content = try repo.content(of: row, revision: live)
                if row.status == .published { published += 1 }
                if row.status == .scheduled { scheduled += 1 }
                do {
                    if row.status == .published {
                        #expect(!content.hasExpired(at: now), "\(row.id) published past its expiry")
                        #expect(!content.isBeforePublishing(at: now), "\(row.id) published before its publishAt")
                    }
                    if row.status == .scheduled {
                        #expect(content.isBeforePublishing(at: now) && !content.hasExpired(at: now), "\(row.id) scheduled, yet due")
                    }
                }
            }
        }

        /// At any moment: what the exports give the app is showable now.
        func checkShown() throws {
            for id in ids {
                guard let row = try repo.row(id: id), row.status == .published, let live = row.liveRevision else { continue }
                let shown = [try repo.content(of: row, revision: live)].filter { $0.isShowable(at: clock.now) }
                #expect(shown.allSatisfy { !$0.hasExpired(at: clock.now) && !$0.isBeforePublishing(at: clock.now) })
            }
        }
    }

    @Test func noAlertOutlivesItsWithdrawalAndNoItemIsShownOutsideItsTimes() throws {
        var sequences = 0, checks = 0, published = 0, scheduled = 0
        for seed in 1...10_000 {
            var world = World(seed: UInt64(seed))
            for _ in 0..<world.random.int(6...24) {
                switch world.random.int(0...9) {
                case 0...2:
                    world.changeSources()
                    try world.run()
                case 3...6: try world.decide()
                case 7, 8:
                    // Minutes as often as hours: times are met on both sides of their moment.
                    let step = world.random.chance(50) ? world.random.int(30...1_200) : world.random.int(1_200...10_800)
                    world.clock.advance(Double(step))
                default:
                    _ = try world.life.applyDue(by: "cron")
                }
                try world.checkShown()
            }
            try world.run()
            sequences += 1
            checks += world.checked
            published += world.published
            scheduled += world.scheduled
        }
        #expect(scheduled > 1_000, "\(scheduled) scheduled")
        #expect(sequences == 10_000)
        #expect(checks > 100_000, "\(checks) item states checked")
        #expect(published > 5_000, "\(published) of them published: the rules were tested on live items")
    }
}
