import Foundation
import QuireCore

/// Whether a command starts the vault's watcher by itself, as git's fsmonitor does: in a vault
/// of at least `minimumNotes` notes, the first command that finds no watcher starts
/// `quire watch` in the background, unless `watch: off` is set in `.quire/config.yml` (every
/// device) or `.quire/local/config.yml` (this device, which wins). Such a watcher exits after
/// `idleSeconds` without a question.
public struct WatcherPolicy: Equatable, Sendable {
    /// The `watch:` setting.
    public enum Mode: String, Equatable, Sendable {
        /// Start it in vaults of `minimumNotes` notes or more (the default).
        case auto
        /// Start it whatever the vault's size.
        case on
        /// Never start it by itself (`quire watch start` still does).
        case off
    }

    /// The vault size from which a watcher pays: below it one `stat` per note costs less than
    /// asking a watcher (Docs/search.md has the figures).
    public static let defaultMinimumNotes = 5_000
    /// An idle hour.
    public static let defaultIdleSeconds: Double = 3_600

    /// The `watch:` setting (`auto` when none).
    public var mode: Mode = .auto
    /// The size from which `auto` starts it (`QUIRE_WATCH_NOTES` overrides, e.g. for tests).
    public var minimumNotes = WatcherPolicy.defaultMinimumNotes
    /// How long a watcher a command started waits for a question before it exits
    /// (`QUIRE_WATCH_IDLE`, in seconds, overrides).
    public var idleSeconds = WatcherPolicy.defaultIdleSeconds

    /// The policy of `vault`: the shared config, then the local one, then the environment. A
    /// config file that cannot be read leaves the default (the command itself reports it).
    public static func of(_ vault: Vault, environment: [String: String]) -> WatcherPolicy {
        var policy = WatcherPolicy()
        if let shared = try? vault.config() { policy.apply(shared) }
        if let local = TransferSettings.localConfig(vault) { policy.apply(local) }
        if let text = environment["QUIRE_WATCH_NOTES"], let notes = Int(text), notes >= 0 { policy.minimumNotes = notes }
        if let text = environment["QUIRE_WATCH_IDLE"], let seconds = Double(text), seconds.isFinite, seconds > 0 {
            policy.idleSeconds = seconds
        }
        return policy
    }

    /// Takes the `watch:` key of `config` (`off`, `false`, `auto`, `on`, `true`); other values
    /// are ignored.
    mutating func apply(_ config: VaultConfig) {
        switch config.value(forKey: "watch") {
        case .bool(let on)?: mode = on ? .on : .off
        case .string(let text)?: mode = Mode(rawValue: text.lowercased()) ?? mode
        default: break
        }
    }

    /// Whether a command that found no watcher in a vault of `noteCount` notes starts one.
    public func startsWatcher(noteCount: Int) -> Bool {
        switch mode {
        case .off: return false
        case .on: return true
        case .auto: return noteCount >= minimumNotes
        }
    }
}
