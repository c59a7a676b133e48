import Foundation
import QuireCore
import QuireGit
#if canImport(Glibc)
import Glibc
#endif

/// What one sync runs with: the device, the clock, the author, fault injection for tests.
public struct SyncEnvironment: Sendable {
    /// This device's name (`QUIRE_DEVICE`, local config, host name).
    public var device: String
    /// The time stamped on commits and notes (`QUIRE_NOW` in tests).
    public var now: Date
    /// The process environment (credentials, `QUIRE_FAULT`).
    public var variables: [String: String]
    /// Asked at each safe point of a sync: the signal (SIGINT, SIGTERM) that asked it to stop, or
    /// nil to go on. The caller owns the signal handling (see `quire sync`); nil never stops.
    public var interruption: (@Sendable () -> Int32?)?
    /// The cryptography of an encrypted remote, holding this device's vault key; nil when the
    /// device has none (a sync with an encrypted remote then refuses: `CarrierError.keyUnavailable`).
    public var sealing: (any CarrierSealing)?

    /// Creates an environment.
    public init(device: String, now: Date, variables: [String: String],
                interruption: (@Sendable () -> Int32?)? = nil) {
        self.device = device
        self.now = now
        self.variables = variables
        self.interruption = interruption
    }

    /// A safe point of the sync: the test hook `fault(point)`, then, when an interrupt was asked
    /// for, `SyncError.interrupted`. Only called where stopping leaves nothing half-done (the
    /// work tree, the index and the branch agree, and no temporary file is left).
    func checkpoint(_ point: String) throws {
        try fault(point)
        if let signal = interruption?() { throw SyncError.interrupted(signal: signal, point: point) }
    }

    /// Test hook (`FaultInjection`): `QUIRE_FAULT=<point>` makes the sync fail at that point
    /// with `SyncError.injectedFault`; `<point>:kill` kills the process there (a crash, for
    /// crash-safety tests); `<point>:stop` stops it there until SIGCONT (a test plays the user in
    /// between: saves a file at the worst moment).
    func fault(_ point: String) throws {
        if FaultInjection(environment: variables).trigger(point) { throw SyncError.injectedFault(point) }
    }

    /// The commit signature: git config `user.name`/`user.email`, else `author` in the local
    /// config (`Name <email>`), else `Quire (<device>)`.
    public func signature(repository: Repository, vault: Vault) -> Signature {
        let offset = TimeZone.current.secondsFromGMT(for: now) / 60
        if let name = try? repository.configString("user.name"), let email = try? repository.configString("user.email"),
           !name.isEmpty {
            return Signature(name: name, email: email, time: now, offsetMinutes: offset)
        }
        if let data = try? Data(contentsOf: vault.url(for: ".quire/local/config.yml")),
           let config = try? VaultConfig(data: data, path: ".quire/local/config.yml"),
           let author = config.value(forKey: "author")?.stringValue {
            let parts = author.split(separator: "<", maxSplits: 1)
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? author
            let email = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "> ")) : "\(device)@quire.invalid"
            return Signature(name: name, email: email, time: now, offsetMinutes: offset)
        }
        return Signature(name: "Quire (\(device))", email: "\(Self.safeEmailPart(device))@quire.invalid",
                         time: now, offsetMinutes: offset)
    }

    static func safeEmailPart(_ text: String) -> String {
        let kept = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return kept.isEmpty ? "device" : String(kept)
    }
}
