import Foundation
import Testing
import TimeTrackKit

@testable import TimeTrackImport

/// The address rules of the web client, without a network.
@Suite struct NetworkPolicyTests {
    @Test func plainHTTPConnectsToTheCheckedAddressAndKeepsTheName() throws {
        let url = try #require(URL(string: "http://school.example:8080/news/list.html?page=2"))
        let (pinned, host) = WebClient.pinned(url, to: "203.0.113.7")
        #expect(pinned.absoluteString == "http://203.0.113.7:8080/news/list.html?page=2")
        #expect(host == "school.example:8080")
        let (v6, v6Host) = WebClient.pinned(try #require(URL(string: "http://school.example/a")), to: "2001:db8::1")
        #expect(v6.absoluteString == "http://[2001:db8::1]/a")
        #expect(v6Host == "school.example")
        // https keeps the name (its certificate is for the name); nothing checked: unchanged.
        let secure = try #require(URL(string: "https://school.example/a"))
        #expect(WebClient.pinned(secure, to: "203.0.113.7").0 == secure)
        #expect(WebClient.pinned(url, to: nil).0 == url)
    }

    @Test func robotsOriginOfAnIPv6LiteralKeepsItsBrackets() throws {
        #expect(WebClient.origin(try #require(URL(string: "http://[::1]:8080/x/y"))) == "http://[::1]:8080")
        #expect(WebClient.origin(try #require(URL(string: "https://[2001:db8::1]/x"))) == "https://[2001:db8::1]")
        #expect(WebClient.origin(try #require(URL(string: "http://school.example/x"))) == "http://school.example")
        #expect(URL(string: (WebClient.origin(try #require(URL(string: "http://[::1]:8080/x"))) ?? "") + "/robots.txt") != nil)
    }

    @Test func checkedAddressIsReturned() throws {
        let address = try AddressPolicy.check(try #require(URL(string: "http://127.0.0.1:9/")), allowance: .only(["127.0.0.1"]))
        #expect(address == "127.0.0.1")
        #expect(throws: Error.self) { try AddressPolicy.check(try #require(URL(string: "http://127.0.0.1:9/")), allowance: .none) }
    }
}
