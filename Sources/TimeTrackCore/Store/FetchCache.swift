import Foundation

/// Validators and body of a page fetched before, for conditional requests.
public struct CachedResponse: Sendable {
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    public var body: Data

    public init(etag: String?, lastModified: String?, contentType: String?, body: Data) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.body = body
    }
}

/// Where conditional-request validators are kept between runs (the store).
public protocol FetchCache: AnyObject {
    func cachedResponse(for url: String) throws -> CachedResponse?
    func saveResponse(_ response: CachedResponse, for url: String) throws
}
