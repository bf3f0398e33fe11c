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

/// The validators of pages fetched before, read: what a read-ahead lane may use.
public protocol FetchCacheReader: AnyObject {
    func cachedResponse(for url: String) throws -> CachedResponse?
}

/// Where conditional-request validators are kept between runs (the store).
public protocol FetchCache: FetchCacheReader {
    func saveResponse(_ response: CachedResponse, for url: String) throws
}
