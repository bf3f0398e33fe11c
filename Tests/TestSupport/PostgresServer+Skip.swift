import Foundation
import Testing

extension PostgresServer {
    /// Stops the running test as skipped when no PostgreSQL server can be started here.
    ///
    /// Swift Testing reports it cancelled, not passed. In CI (`CI` set) that is a failure
    /// instead: `.ci/run` must not pass with the PostgreSQL half left out.
    public static func requireOrSkip() throws {
        guard let reason = unavailable else { return }
        try Skip.because("no PostgreSQL server can start here (\(reason))")
    }
}
