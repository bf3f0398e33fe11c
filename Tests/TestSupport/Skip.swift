import Foundation
import Testing

/// A test that cannot run here is reported skipped (cancelled), never passed.
public enum Skip {
    /// Stops the running test as skipped, saying why.
    ///
    /// In CI (`CI` set) it records a failure instead: `.ci/run` installs every tool the tests
    /// need, so a test left out there is a test that did not run.
    public static func because(_ reason: String) throws {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record(Comment(rawValue: "needed in CI, and missing: \(reason)"))
            return
        }
        try Test.cancel(Comment(rawValue: "skipped: \(reason)"))
    }
}
