import Foundation
import TestSupport
import Testing

/// A database server's address given as the store: a clear configuration error that never
/// repeats the password, and no file made from it; commands that need no store still run.
@Suite struct StoreAddressTests {
    @Test(arguments: ["postgresql://ana:s3cret@db.district.example/timetrack", "postgres:///timetrack?host=/run/postgresql", "mysql://root@localhost/tt"])
    func aServerAddressIsNotAFileName(_ address: String) throws {
        let dir = try TemporaryDirectory("store-address")
        defer { dir.remove() }
        for environment in [[:], ["TIMETRACK_STORE": address]] {
            let words = environment.isEmpty ? ["--store", address, "status"] : ["status"]
            let result = try Binaries.run("timetrack-admin", words, environment: environment, currentDirectory: dir.url.path)
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("is a database server's address") && result.stderr.contains("SQLite file"), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"), "the password was shown: \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "something was made in \(dir.url.path)")
        }
        let grades = try Binaries.run("timetrack-admin", ["--store", address, "help", "grades"])
        #expect(grades.status == 0)
    }
}
