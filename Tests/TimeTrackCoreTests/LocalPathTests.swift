import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// Issue 36: the boundary every local read goes through (a source's page, an export's picture,
/// an accessible copy): real files inside the root, and nothing a path or a link can make of
/// it outside; copies served only when their bytes still have their name.
@Suite struct LocalPathTests {
    /// A root folder with a file in it, a file beside it, and a folder whose name starts like it.
    static func layout() throws -> (TemporaryDirectory, root: String) {
        let dir = try TemporaryDirectory("local-path")
        try dir.write("imports/news.html", "<p>news</p>")
        try dir.write("imports/sub/page.html", "<p>sub</p>")
        try dir.write("secret.txt", "outside")
        try dir.write("imports-evil/x.html", "<p>not inside</p>")
        return (dir, dir.path("imports"))
    }

    @Test func filesInsideAreTheirRealPaths() throws {
        let (dir, root) = try Self.layout()
        defer { dir.remove() }
        #expect(LocalPath.regularFile(dir.path("imports/news.html"), inside: root)?.hasSuffix("/imports/news.html") == true)
        #expect(LocalPath.regularFile(dir.path("imports/sub/../news.html"), inside: root)?.hasSuffix("/imports/news.html") == true)
        #expect(LocalPath.regularFile(dir.path("imports/sub/page.html"), inside: root) != nil)
    }

    @Test func nothingOutsideIsReached() throws {
        let (dir, root) = try Self.layout()
        defer { dir.remove() }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.path("imports/link.txt"), withDestinationPath: dir.path("secret.txt"))
        try fm.createSymbolicLink(atPath: dir.path("imports/up"), withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir.path("imports/null"), withDestinationPath: "/dev/null")
        for path in [
            dir.path("secret.txt"), dir.path("imports/../secret.txt"), dir.path("imports/link.txt"), dir.path("imports/up/secret.txt"),
            dir.path("imports-evil/x.html"), dir.path("imports/../imports-evil/x.html"), dir.path("imports/null"), "/etc/passwd",
        ] {
            #expect(LocalPath.regularFile(path, inside: root) == nil, "\(path)")
        }
    }

    @Test func onlyRegularFilesCount() throws {
        let (dir, root) = try Self.layout()
        defer { dir.remove() }
        #expect(mkfifo(dir.path("imports/pipe"), 0o600) == 0)
        #expect(LocalPath.regularFile(dir.path("imports/pipe"), inside: root) == nil)
        #expect(LocalPath.regularFile(dir.path("imports/sub"), inside: root) == nil)
        #expect(LocalPath.regularFile(dir.path("imports/missing.html"), inside: root) == nil)
        #expect(LocalPath.regularFile(dir.path("imports/news.html"), inside: dir.path("no-such-root")) == nil)
    }

    @Test(arguments: [
        ("/srv/imports/a", "/srv/imports", true), ("/srv/imports", "/srv/imports", true), ("/srv/imports-evil/a", "/srv/imports", false),
        ("/srv/a", "/", true), ("/srv/importsa", "/srv/imports/", false), ("/srv/imports/a", "/srv/imports/", true),
    ])
    func insideIsByFolderNotByPrefix(_ path: String, _ base: String, _ expected: Bool) {
        #expect(LocalPath.isInside(path, base) == expected, "\(path) in \(base)")
    }

    // MARK: Accessible copies

    @Test func aCopyIsKeptByItsHashAndServedWhileItsBytesMatch() throws {
        let dir = try TemporaryDirectory("copies")
        defer { dir.remove() }
        let copies = AccessibleCopies(importsFolder: dir.path("imports"))
        let bytes = Data("%PDF-1.4 searchable copy".utf8)
        let hash = try copies.keep(bytes)
        #expect(hash == SHA256.hex(bytes))
        #expect(copies.path(of: hash) == dir.path("imports/_accessible/\(hash).pdf"))
        #expect(copies.read(hash) == bytes)
        // Changed on disk: its name no longer says what it is, so it is not served.
        try Data("%PDF-1.4 something else".utf8).write(to: URL(fileURLWithPath: dir.path("imports/_accessible/\(hash).pdf")))
        #expect(copies.read(hash) == nil)
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 64), "../" + String(repeating: "a", count: 61), String(repeating: "g", count: 64)])
    func onlyAHashNamesACopy(_ name: String) {
        let copies = AccessibleCopies(importsFolder: "/srv/imports")
        #expect(copies.path(of: name) == nil, "\(name)")
        #expect(copies.read(name) == nil)
    }

    @Test func aLinkNamedLikeACopyIsNotFollowedOut() throws {
        let dir = try TemporaryDirectory("copies")
        defer { dir.remove() }
        let secret = Data("outside the imports folder".utf8)
        try secret.write(to: URL(fileURLWithPath: dir.path("secret.pdf")))
        let hash = SHA256.hex(secret)
        try FileManager.default.createDirectory(atPath: dir.path("imports/_accessible"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path("imports/_accessible/\(hash).pdf"), withDestinationPath: dir.path("secret.pdf"))
        #expect(AccessibleCopies(importsFolder: dir.path("imports")).read(hash) == nil)
    }
}
