import Foundation
import TestSupport
import Testing
import TimeTrackFuzz

/// A fixed-seed batch of mutated inputs per parser (`timetrack-bench --fuzz N` runs longer ones):
/// no trap (the test process would die), no error but a `TimeTrackError`, no input over 10 s.
@Suite struct FuzzTests {
    @Test(arguments: FuzzCampaign.targets)
    func aFixedSeedBatch(_ target: String) throws {
        let dir = try TemporaryDirectory("fuzz-\(target)")
        defer { dir.remove() }
        let campaign = FuzzCampaign(seed: 20_261_123, folder: dir.url)
        let report = try campaign.run(target, iterations: ["ics", "html", "json"].contains(target) ? 150 : 1_500)
        #expect(report.failures.isEmpty, "\(report.failures.count) failures; first: \(report.failures.first?.prefix(300) ?? "")")
        // The seeds parse: a batch that accepts nothing would test only the refusals.
        #expect(report.accepted > 0, "\(report)")
    }
}
