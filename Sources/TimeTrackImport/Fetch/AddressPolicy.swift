import Foundation
import TimeTrackCore
import TimeTrackKit

/// Refuses requests to loopback, private, link-local and other non-public addresses, unless a
/// source allows its private network.
///
/// The host is resolved and every address checked.
public enum AddressPolicy {
    /// Throws `.fetch` when `url`'s host resolves to an address that is not public; returns the
    /// first address it checked (numeric), so the connection can go to that very address.
    @discardableResult
    public static func check(_ url: URL, allowance: PrivateNetworkAllowance) throws -> String? {
        try checkAll(url, allowance: allowance).first
    }

    /// Like `check`, with every address checked, in the resolver's order (empty when no check
    /// was asked for: `allowPrivateNetwork: true`).
    public static func checkAll(_ url: URL, allowance: PrivateNetworkAllowance) throws -> [String] {
        if allowance == .all { return [] }
        guard let host = url.host, !host.isEmpty else {
            throw TimeTrackError(.fetch, "the URL has no host", context: ["url": url.absoluteString])
        }
        guard let resolved = resolve(host) else {
            throw TimeTrackError(.fetch, "cannot resolve \(host)", fix: "check the host name and the network", context: ["url": url.absoluteString])
        }
        for address in resolved {
            if let reason = address.privateReason, !allowance.allows(host: host, address: address.numeric) {
                throw TimeTrackError(
                    .refusedAddress, "refused: \(host) is \(reason)",
                    fix: "if this source really lives on your network, set \"allowPrivateNetwork\": true in its definition",
                    context: ["url": url.absoluteString])
            }
        }
        return resolved.map(\.numeric)
    }

    /// The addresses `host` resolves to, numeric (for pinning a connection when no check was
    /// asked for); empty when it does not resolve.
    public static func addresses(_ host: String) -> [String] {
        resolve(host)?.map(\.numeric) ?? []
    }

    /// Every distinct address of `host`, in the resolver's order, with why it is not public
    /// (nil: public); nil when the name does not resolve.
    static func resolve(_ host: String) -> [(numeric: String, privateReason: String?)]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        var found: [(numeric: String, privateReason: String?)] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            if let address = current.pointee.ai_addr, let text = numeric(address), !found.contains(where: { $0.numeric == text }) {
                found.append((text, privateReason(address)))
            }
            node = current.pointee.ai_next
        }
        return found
    }

    /// The numeric form of an address (`127.0.0.1`, `::1`).
    static func numeric(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(Int32(address.pointee.sa_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why an address is not public, or nil for a public one.
    static func privateReason(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        if Int32(address.pointee.sa_family) == AF_INET {
            let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let a = v4 >> 24, b = (v4 >> 16) & 0xFF
            if a == 127 { return "a loopback address" }
            if a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) { return "a private address" }
            if a == 169 && b == 254 { return "a link-local address" }
            if a == 100 && (64...127).contains(b) { return "a shared (carrier-grade NAT) address" }
            if a == 0 || a >= 224 { return "not a unicast address" }
            return nil
        }
        if Int32(address.pointee.sa_family) == AF_INET6 {
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer -> [UInt8] in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return "a loopback address" }
            if bytes.allSatisfy({ $0 == 0 }) { return "not a unicast address" }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "a link-local address" }
            if bytes[0] & 0xFE == 0xFC { return "a private (unique local) address" }
            if bytes[0] == 0xFF { return "not a unicast address" }
            // Addresses that carry an IPv4 address: the IPv4 part decides.
            func embedded(_ at: Int) -> String? {
                var v4 = sockaddr_in()
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_addr.s_addr = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
                return withUnsafeMutablePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { privateReason($0) } }
            }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return embedded(12) }  // ::ffff:a.b.c.d
            if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B] && bytes[4..<12].allSatisfy({ $0 == 0 }) { return embedded(12) }  // NAT64 64:ff9b::/96
            if bytes[0] == 0x20 && bytes[1] == 0x02 { return embedded(2) }  // 6to4 2002::/16
        }
        return nil
    }
}
