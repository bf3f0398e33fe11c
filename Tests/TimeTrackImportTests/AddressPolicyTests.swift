import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport

/// The private-network rule: numeric hosts only, so no test needs a resolver or a network.
@Suite struct AddressPolicyTests {
    static let refused: [(String, String)] = [
        ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("10.0.0.5", "private"), ("172.16.0.1", "private"),
        ("172.31.255.254", "private"), ("192.168.1.1", "private"), ("169.254.169.254", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"), ("0.0.0.0", "not a unicast"), ("224.0.0.1", "not a unicast"),
        ("255.255.255.255", "not a unicast"), ("[::1]", "loopback"), ("[::]", "not a unicast"), ("[fe80::1]", "link-local"),
        ("[fd00::1]", "unique local"), ("[ff02::1]", "not a unicast"), ("[::ffff:127.0.0.1]", "loopback"),
        ("[::ffff:10.1.2.3]", "private"), ("[64:ff9b::a00:1]", "private"), ("[2002:c0a8:101::1]", "private"),
    ]

    @Test(arguments: refused)
    func nonPublicAddressesAreRefusedWithTheReason(_ host: String, _ reason: String) {
        #expect {
            try AddressPolicy.check(URL(string: "http://\(host)/news")!, allowance: .none)
        } throws: { error in
            guard let error = error as? TimeTrackError else { return false }
            return error.code == .refusedAddress && error.message.contains(reason) && error.fix?.contains("allowPrivateNetwork") == true
        }
    }

    @Test(arguments: ["93.184.216.34", "172.32.0.1", "100.128.0.1", "192.169.0.1", "[2606:4700::1111]", "[64:ff9b::5db8:d822]"])
    func publicAddressesPassAndAreReturnedForPinning(_ host: String) throws {
        let address = try AddressPolicy.check(URL(string: "http://\(host)/")!, allowance: .none)
        #expect(address == host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }

    @Test func anAllowanceNamesTheHostsItLetsThrough() throws {
        let only = PrivateNetworkAllowance.only(["10.0.0.5"])
        #expect(try AddressPolicy.check(URL(string: "http://10.0.0.5/")!, allowance: only) == "10.0.0.5")
        #expect(throws: TimeTrackError.self) { try AddressPolicy.check(URL(string: "http://10.0.0.6/")!, allowance: only) }
        // Allowing everything checks nothing (and resolves nothing).
        #expect(try AddressPolicy.checkAll(URL(string: "http://192.168.0.1/")!, allowance: .all).isEmpty)
    }

    @Test func aURLWithoutAHostIsRefused() {
        #expect(throws: TimeTrackError.self) { try AddressPolicy.check(URL(string: "file:///etc/passwd")!, allowance: .none) }
    }
}
