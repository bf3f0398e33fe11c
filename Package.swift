// swift-tools-version:6.0
import PackageDescription

/// Time Track Admin: the admin console and importer behind the Time Track school app.
///
/// No Swift package dependencies: Foundation and system C libraries through `C<Lib>` shims only.
/// Built for Linux (glibc): the code calls Glibc, and the libxml2 arena (`CXMLArena`) checks
/// for glibc when it compiles.
let package = Package(
    name: "TimeTrackAdmin",
    products: [
        .executable(name: "timetrack-admin", targets: ["timetrack-admin"]),
        .library(name: "TimeTrackCore", targets: ["TimeTrackCore"]),
        .library(name: "TimeTrackStore", targets: ["TimeTrackStore"]),
        .library(name: "TimeTrackReview", targets: ["TimeTrackReview"]),
        .library(name: "TimeTrackKit", targets: ["TimeTrackKit"]),
    ],
    targets: [
        // C shims.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // Linux calls Swift cannot make itself (variadic prctl).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // Arenas for libxml2's allocations while a page is parsed (C: thread-local state).
        .target(name: "CXMLArena", dependencies: ["CLibXML2"], path: "Sources/CXMLArena"),
        // libcurl's easy interface, loaded at run time: the web client's transfers, decompressed
        // under its own cap (URLSession decompresses with no limit).
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl")]),

        // Libraries.
        .target(name: "TimeTrackCore", path: "Sources/TimeTrackCore"),
        .target(name: "TimeTrackReview", dependencies: ["TimeTrackCore"], path: "Sources/TimeTrackReview"),
        .target(name: "TimeTrackStore", dependencies: ["TimeTrackCore", "CSQLite"], path: "Sources/TimeTrackStore"),
        .target(name: "TimeTrackKit", dependencies: ["TimeTrackCore", "CLibXML2", "CXMLArena"], path: "Sources/TimeTrackKit"),
        .target(
            name: "TimeTrackImport",
            dependencies: [
                "TimeTrackCore", "TimeTrackKit", "TimeTrackReview", "HTMLImporter", "InboxImporter", "ICalImporter", "FeedImporter", "WordPressImporter",
                "MetadataImporter", "DocumentsImporter", "JSONImporter", "LMSImporter",
                "PhotoImporter", "CLinux", "CCurl",
            ],
            path: "Sources/TimeTrackImport"),
        .target(name: "TimeTrackFuzz", dependencies: ["TimeTrackCore", "TimeTrackKit", "TimeTrackImport"], path: "Sources/TimeTrackFuzz"),
        .target(name: "TimeTrackExport", dependencies: ["TimeTrackCore"], path: "Sources/TimeTrackExport"),
        .target(
            name: "TimeTrackDiscover", dependencies: ["TimeTrackCore", "TimeTrackKit", "TimeTrackImport"], path: "Sources/TimeTrackDiscover",
            resources: [.copy("Recognizers")]),
        .target(
            name: "TimeTrackConsole",
            dependencies: ["TimeTrackCore", "TimeTrackStore", "TimeTrackReview", "TimeTrackKit", "TimeTrackImport", "TimeTrackExport", "TimeTrackDiscover"],
            path: "Sources/TimeTrackConsole"),
        .executableTarget(name: "timetrack-admin", dependencies: ["TimeTrackConsole"], path: "Sources/timetrack-admin"),
        .executableTarget(
            name: "timetrack-bench",
            dependencies: [
                "TimeTrackConsole", "TimeTrackCore", "TimeTrackStore", "TimeTrackReview", "TimeTrackKit", "TimeTrackImport", "TimeTrackFuzz", "CSQLite",
            ],
            path: "Sources/timetrack-bench"),

        // Importer plugins.
        .target(name: "HTMLImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/HTML"),
        .target(name: "InboxImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/Inbox"),
        .target(name: "ICalImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/ICal"),
        .target(name: "FeedImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/Feed"),
        .target(name: "WordPressImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/WordPress"),
        .target(name: "MetadataImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/Metadata"),
        .target(name: "DocumentsImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/Documents"),
        .target(name: "JSONImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/JSON"),
        .target(name: "LMSImporter", dependencies: ["TimeTrackCore", "TimeTrackKit", "ICalImporter"], path: "Plugins/LMS"),
        .target(name: "PhotoImporter", dependencies: ["TimeTrackCore", "TimeTrackKit"], path: "Plugins/Photo"),

        // Test helpers and tests.
        .target(
            name: "TestSupport", dependencies: ["TimeTrackCore", "TimeTrackStore", "TimeTrackReview", "TimeTrackKit", "TimeTrackImport", "TimeTrackFuzz"],
            path: "Tests/TestSupport"),
        .executableTarget(
            name: "timetrack-torture", dependencies: ["TimeTrackCore", "TimeTrackStore", "TimeTrackReview"],
            path: "Tests/Helpers/timetrack-torture"),
        .testTarget(name: "TimeTrackCoreTests", dependencies: ["TimeTrackCore", "TestSupport"], path: "Tests/TimeTrackCoreTests"),
        .testTarget(
            name: "TimeTrackStoreTests",
            dependencies: ["TimeTrackStore", "TimeTrackReview", "TestSupport", "timetrack-torture", "timetrack-admin"],
            path: "Tests/TimeTrackStoreTests"),
        .testTarget(name: "TimeTrackReviewTests", dependencies: ["TimeTrackReview", "TimeTrackStore", "TestSupport"], path: "Tests/TimeTrackReviewTests"),
        .testTarget(
            name: "TimeTrackImportTests",
            dependencies: ["TimeTrackImport", "TimeTrackKit", "TimeTrackFuzz", "TimeTrackStore", "TimeTrackReview", "TestSupport"],
            path: "Tests/TimeTrackImportTests"),
        .testTarget(name: "TimeTrackKitTests", dependencies: ["TimeTrackKit", "TestSupport"], path: "Tests/TimeTrackKitTests"),
        .testTarget(
            name: "TimeTrackDiscoverTests", dependencies: ["TimeTrackDiscover", "TimeTrackImport", "TimeTrackKit", "TimeTrackCore", "TestSupport"],
            path: "Tests/TimeTrackDiscoverTests"),
        .testTarget(
            name: "HTMLImporterTests", dependencies: ["HTMLImporter", "TimeTrackImport", "TimeTrackStore", "TestSupport"],
            path: "Tests/HTMLImporterTests", resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedImporterTests", dependencies: ["FeedImporter", "TimeTrackImport", "TestSupport"], path: "Tests/FeedImporterTests"),
        .testTarget(name: "WordPressImporterTests", dependencies: ["TimeTrackImport", "TestSupport"], path: "Tests/WordPressImporterTests"),
        .testTarget(name: "MetadataImporterTests", dependencies: ["MetadataImporter", "TimeTrackImport", "TestSupport"], path: "Tests/MetadataImporterTests"),
        .testTarget(name: "DocumentsImporterTests", dependencies: ["TimeTrackImport", "TestSupport"], path: "Tests/DocumentsImporterTests"),
        .testTarget(name: "JSONImporterTests", dependencies: ["TimeTrackImport", "TimeTrackKit", "TestSupport"], path: "Tests/JSONImporterTests"),
        .testTarget(
            name: "LMSImporterTests", dependencies: ["PhotoImporter", "TimeTrackImport", "TimeTrackKit", "TestSupport"], path: "Tests/LMSImporterTests"),
        .testTarget(name: "ICalImporterTests", dependencies: ["ICalImporter", "TimeTrackImport", "TestSupport"], path: "Tests/ICalImporterTests"),
        .testTarget(
            name: "TimeTrackExportTests",
            dependencies: ["TimeTrackExport", "ICalImporter", "TimeTrackImport", "TimeTrackStore", "TestSupport", "timetrack-admin"],
            path: "Tests/TimeTrackExportTests"),
        .testTarget(
            name: "TimeTrackConsoleTests", dependencies: ["TimeTrackConsole", "TestSupport", "timetrack-admin"],
            path: "Tests/TimeTrackConsoleTests"),
    ],
    swiftLanguageModes: [.v6]
)
