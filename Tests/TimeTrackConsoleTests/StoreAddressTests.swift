import Foundation
import TestSupport
import Testing

/// A database server's address given as the store is never a file name: a PostgreSQL address
/// that cannot be reached is a clear error that never repeats the password, another server's
/// address is a configuration error; no file is made from either, and commands that need no
/// store still run.
@Suite struct StoreAddressTests {
    @Test(arguments: [
        ("postgresql://ana:s3cret@db.district.example/timetrack", "cannot connect to PostgreSQL", Int32(1)),
        ("postgres:///timetrack?host=/run/nowhere-postgresql", "cannot connect to PostgreSQL", 1),
        ("mysql://root:s3cret@localhost/tt", "is a database server's address, and the store keeps to SQLite files and PostgreSQL", 2),
    ])
    func aServerAddressIsNotAFileName(_ address: String, _ message: String, _ status: Int32) throws {
        let dir = try TemporaryDirectory("store-address")
        defer { dir.remove() }
        for environment in [[:], ["TIMETRACK_STORE": address]] {
            let words = environment.isEmpty ? ["--store", address, "status"] : ["status"]
            let result = try Binaries.run("timetrack-admin", words, environment: environment, currentDirectory: dir.url.path)
            #expect(result.status == status, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"), "the password was shown: \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "something was made in \(dir.url.path)")
        }
        let grades = try Binaries.run("timetrack-admin", ["--store", address, "help", "grades"])
        #expect(grades.status == 0)
    }
}
