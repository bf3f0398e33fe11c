import Foundation

/// One environment variable, read with `getenv`: `ProcessInfo.environment` copies every
/// variable into a dictionary each time it is asked, which an import pays on every run.
public enum Environment {
    /// The variable's value, or nil when it is not set (or not UTF-8).
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(validatingCString: raw)
    }
}
