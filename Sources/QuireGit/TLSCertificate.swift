import Foundation

/// What a server's X.509 certificate (DER, as libgit2 hands it to `certificate_check`) says
/// that a user needs to decide whether to trust it: its SHA-256 fingerprint and the names and
/// addresses it was issued for (subjectAltName). Only this much of the DER is read.
public struct TLSCertificate: Equatable, Sendable {
    /// `SHA256:AB:CD:…`, the form `openssl x509 -noout -fingerprint -sha256` prints.
    public let fingerprint: String
    /// The subjectAltName host names (`DNS:`).
    public let hostNames: [String]
    /// The subjectAltName addresses (`IP:`), as text.
    public let addresses: [String]

    /// Reads `der`; names it cannot parse are left out (the fingerprint is always there).
    public init(der: Data) {
        fingerprint = "SHA256:" + SHA256.digest(der).map { String(format: "%02X", $0) }.joined(separator: ":")
        var names: [String] = []
        var found: [String] = []
        for entry in TLSCertificate.alternativeNames(der) {
            switch entry.tag {
            case 0x82: names.append(String(decoding: entry.value, as: UTF8.self))
            case 0x87 where entry.value.count == 4: found.append(entry.value.map(String.init).joined(separator: "."))
            case 0x87 where entry.value.count == 16:
                found.append(stride(from: 0, to: 16, by: 2).map {
                    String(UInt16(entry.value[entry.value.startIndex + $0]) << 8 | UInt16(entry.value[entry.value.startIndex + $0 + 1]), radix: 16)
                }.joined(separator: ":"))
            default: break
            }
        }
        hostNames = names
        addresses = found
    }

    /// `text` as a fingerprint in `fingerprint`'s form, or nil when it is not 32 bytes of hex
    /// (with or without `SHA256:`, colons, any case).
    public static func normalizedFingerprint(_ text: String) -> String? {
        var hex = text.trimmingCharacters(in: .whitespaces)
        if hex.lowercased().hasPrefix("sha256:") { hex = String(hex.dropFirst("sha256:".count)) }
        hex = hex.replacingOccurrences(of: ":", with: "").uppercased()
        guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else { return nil }
        var pairs: [String] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            pairs.append(String(hex[index..<next]))
            index = next
        }
        return "SHA256:" + pairs.joined(separator: ":")
    }

    /// Why a certificate libgit2 did not accept was refused, for `host` (as in the URL).
    /// Debian's libgit2 verifies with mbed TLS 2.28, which matches subjectAltName host names
    /// but never IP addresses, so a certificate issued for an address fails even when trusted.
    public func refusal(host: String) -> String {
        let isAddress = host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        let issuedFor = (hostNames + addresses).joined(separator: ", ")
        if isAddress, addresses.contains(host) {
            let instead = hostNames.first.map { "connect as \($0), a name it is also issued for" }
                ?? "issue it for a host name"
            return "it is issued for the IP address \(host), which libgit2's TLS library (mbed TLS) cannot match; "
                + "pin it, or \(instead)"
        }
        let matches = hostNames.contains { TLSCertificate.name($0, matches: host) }
        if !issuedFor.isEmpty && !matches {
            return "it is issued for \(issuedFor), not \(host)"
        }
        return "it is not signed by a certificate authority this device trusts (self-signed?)"
    }

    private static func name(_ pattern: String, matches host: String) -> Bool {
        let pattern = pattern.lowercased(), host = host.lowercased()
        if pattern.hasPrefix("*."), let dot = host.firstIndex(of: ".") { return host[dot...] == pattern.dropFirst() }
        return pattern == host
    }

    /// One DER element: its tag and the bytes of its value.
    private struct Element {
        var tag: UInt8
        var value: Data
    }

    /// The elements inside a constructed value, in order; stops at the first malformed one.
    private static func children(_ data: Data) -> [Element] {
        var elements: [Element] = []
        var index = data.startIndex
        while index + 1 < data.endIndex {
            let tag = data[index]
            var length = Int(data[index + 1])
            index += 2
            if length & 0x80 != 0 {
                let count = length & 0x7f
                guard count > 0, count <= 4, index + count <= data.endIndex else { break }
                length = data[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            guard length >= 0, index + length <= data.endIndex else { break }
            elements.append(Element(tag: tag, value: data[index..<index + length]))
            index += length
        }
        return elements
    }

    /// The GeneralName entries of the subjectAltName extension (OID 2.5.29.17).
    private static func alternativeNames(_ der: Data) -> [Element] {
        guard let certificate = children(der).first, certificate.tag == 0x30,
              let signed = children(certificate.value).first, signed.tag == 0x30,
              let extensions = children(signed.value).first(where: { $0.tag == 0xA3 }),
              let list = children(extensions.value).first, list.tag == 0x30 else { return [] }
        for item in children(list.value) where item.tag == 0x30 {
            let parts = children(item.value)
            guard let oid = parts.first, oid.tag == 0x06, oid.value == Data([0x55, 0x1D, 0x11]),
                  let octets = parts.last, octets.tag == 0x04,
                  let names = children(octets.value).first, names.tag == 0x30 else { continue }
            return children(names.value)
        }
        return []
    }
}
