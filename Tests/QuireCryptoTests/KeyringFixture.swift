import Foundation
import QuireCore
@testable import QuireCrypto

/// Keyrings for the tests: a cheap Argon2id cost (the algorithm is the same), fixed dates.
enum KeyringFixture {
    /// One pass over 1 MiB: a keyring test derives many passphrase keys.
    static let cost = PassphraseCost(opsLimit: 1, memLimit: 1 << 20)
    static let created = Date(timeIntervalSince1970: 1_780_000_000)
    static let later = created.addingTimeInterval(86_400 * 30)

    /// A keyring made on "laptop", with "desktop" added; both identities and the key.
    static func twoDevices() throws -> (keyring: Keyring, key: VaultKey, laptop: DeviceIdentity, desktop: DeviceIdentity) {
        let laptop = try DeviceIdentity.generate()
        let desktop = try DeviceIdentity.generate()
        let (first, key) = try Keyring.create(passphrase: "correct horse", deviceName: "laptop", identity: laptop,
                                              cost: cost, now: created)
        let keyring = try first.adding(deviceName: "desktop", identity: desktop, key: key, now: later)
        return (keyring, key, laptop, desktop)
    }

    /// `json` with the member at `path` (object keys, or an array index as a decimal string)
    /// replaced by `change` of its value.
    static func replacing(_ json: JSON, at path: [String], _ change: (JSON) -> JSON) -> JSON {
        guard let head = path.first else { return change(json) }
        let rest = Array(path.dropFirst())
        switch json {
        case let .object(members):
            return .object(members.map { $0.0 == head ? ($0.0, replacing($0.1, at: rest, change)) : $0 })
        case let .array(items):
            guard let index = Int(head) else { return json }
            return .array(items.enumerated().map { $0.offset == index ? replacing($0.element, at: rest, change) : $0.element })
        default:
            return json
        }
    }

    /// A value changed a little: hex or text with its last character changed, a number plus one.
    static func nudged(_ value: JSON) -> JSON {
        switch value {
        case let .int(number): return .int(number + 1)
        case let .string(text):
            guard let last = text.last else { return .string("0") }
            return .string(String(text.dropLast()) + (last == "0" ? "1" : "0"))
        default: return value
        }
    }
}
