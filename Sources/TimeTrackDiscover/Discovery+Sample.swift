import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

extension Discovery {
    /// Reads each proposal once (its first page) for a sample and a confidence.
    func sample(_ proposals: inout [Proposal], web: WebClient) {
        for index in proposals.indices {
            // Stopped (Ctrl-C): the rest stay proposed, unread.
            if shouldStop() { break }
            var definition = proposals[index].definition
            if var options = definition["options"]?.objectValue, options["maxPages"] != nil || options["next"] != nil || options["page"] != nil {
                options["maxPages"] = .number(1)
                definition["options"] = .object(options)
            }
            do {
                let source = try SourceDefinition.parse(
                    definition, file: (settings.importsPath as NSString).appendingPathComponent("\(proposals[index].id).json"))
                _ = try ImporterRegistry.make(for: source)
                var pipeline = ImportPipeline(importsRoot: URL(fileURLWithPath: settings.importsPath))
                pipeline.http = web
                pipeline.shouldStop = shouldStop
                pipeline.now = { [now = settings.now] in now }
                let result = try pipeline.extract(source)
                proposals[index].sample = Proposal.Sample(
                    count: result.items.count, items: Array(result.items.prefix(3)), problems: result.problems,
                    titles: Set(result.items.map { TextNormalizer.collapse($0.content.title).lowercased() }))
            } catch let error as TimeTrackError {
                proposals[index].sample = Proposal.Sample(count: 0, items: [], problems: [ImportProblem(.error, error.message, location: proposals[index].url)])
            } catch {
                proposals[index].sample = Proposal.Sample(count: 0, items: [], problems: [ImportProblem(.error, "\(error)", location: proposals[index].url)])
            }
            proposals[index].confidence = Discovery.confidence(proposals[index])
        }
    }

    /// Whether a source that reads nothing today is still a source: an alert source with no
    /// alert up, read without an error.
    static func emptyIsNormal(_ proposal: Proposal) -> Bool {
        proposal.kind == .alert && proposal.sample.map { $0.problems.allSatisfy { $0.severity != .error } } ?? false
    }

    /// High: items and no problem, from a declared feed or a recognized platform; medium: the
    /// same from inference; low: problems, or nothing read.
    static func confidence(_ proposal: Proposal) -> Proposal.Confidence {
        if emptyIsNormal(proposal), proposal.sample?.count == 0 { return proposal.origin == .inferred ? .medium : .high }
        guard let sample = proposal.sample, sample.count > 0 else { return .low }
        let errors = sample.problems.filter { $0.severity == .error }.count
        if errors * 5 > sample.count { return .low }
        if proposal.origin == .inferred || errors > 0 { return .medium }
        return .high
    }
}
