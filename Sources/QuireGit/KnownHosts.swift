import Foundation

/// The entries of an OpenSSH `known_hosts` file (plain and hashed host names), used to check
/// ssh host keys offered to libgit2's `certificate_check` callback.
struct KnownHosts {
    /// What the file says about one host key.
    enum Verdict: Equatable {
        /// The host is listed with exactly this key.
        case trusted
        /// The host is listed, but with other keys of this type (possible man-in-the-middle).
        case mismatch
        /// The host is not listed with a key of this type.
        case unknown
    }

    private struct Entry {
        var patterns: [String]
        var keyType: String
        var key: Data
    }

    private let entries: [Entry]

    /// Reads `url`; a missing file simply has no entries.
    init(contentsOf url: URL) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            entries = []
            return
        }
        var parsed: [Entry] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 3, !fields[0].hasPrefix("#") else { continue }
            var offset = 0
            if fields[0].hasPrefix("@") { offset = 1 }
            guard fields.count >= offset + 3, let key = Data(base64Encoded: fields[offset + 2]) else { continue }
            if fields[0] == "@revoked" { continue }
            parsed.append(Entry(patterns: fields[offset].split(separator: ",").map(String.init),
                                keyType: fields[offset + 1], key: key))
        }
        entries = parsed
    }

    /// The name ssh looks up: `host` on port 22, `[host]:port` elsewhere.
    static func hostName(_ host: String, port: Int?) -> String {
        guard let port, port != 22 else { return host }
        return "[\(host)]:\(port)"
    }

    /// Checks `key` of `keyType` (e.g. `ssh-ed25519`) for `name` (from `hostName`).
    func verdict(name: String, keyType: String, key: Data) -> Verdict {
        var sawType = false
        for entry in entries where entry.patterns.contains(where: { KnownHosts.matches($0, name) }) {
            if entry.key == key { return .trusted }
            if entry.keyType == keyType { sawType = true }
        }
        return sawType ? .mismatch : .unknown
    }

    private static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern.hasPrefix("|1|") {
            let parts = pattern.split(separator: "|").map(String.init)
            guard parts.count == 3, let salt = Data(base64Encoded: parts[1]),
                  let hash = Data(base64Encoded: parts[2]) else { return false }
            return Data(SHA1.hmac(key: [UInt8](salt), message: Array(name.utf8))) == hash
        }
        if pattern.hasPrefix("!") { return false }
        return pattern == name
    }
}
