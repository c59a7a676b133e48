import Foundation
import QuireCore

/// The sync daemon's settings (`quire watch --sync`), from `.quire/config.yml` (shared by every
/// device), then `.quire/local/config.yml` (this device), then the command line; every duration
/// in seconds (Docs/sync.md lists them).
public struct SyncDaemonSettings: Equatable, Sendable {
    /// `sync: auto`: `quire watch` syncs without `--sync`.
    public var automatic = false
    /// `syncDebounce`: quiet time after the last change before a cycle (5 s). While a file keeps
    /// changing (three or more writes within one quiet time) the wait doubles.
    public var debounce: Double = 5
    /// `syncMaxDelay`: a cycle runs at the latest this long after the first change it waits for,
    /// even when files never stop changing (300 s).
    public var maxDelay: Double = 300
    /// `syncFetchInterval`: fetch (a whole cycle) this often when nothing changed locally (60 s).
    public var fetchInterval: Double = 60
    /// `syncBackoffStart`: the first wait after a network failure (10 s); each further failure
    /// doubles it.
    public var backoffStart: Double = 10
    /// `syncBackoffMax`: the longest wait between attempts while the remote cannot be reached
    /// (900 s).
    public var backoffMax: Double = 900
    /// `syncLogSize`: `.quire/local/log` is rotated to `log.1` beyond this many bytes (1 MB).
    public var logSize = 1_000_000
    /// `syncNotify`: new conflicts are announced with `notify-send` when available (true).
    public var notify = true

    /// The defaults.
    public init() {}

    /// The keys of the config files, with the property each sets (seconds unless said).
    static let keys = ["syncDebounce", "syncMaxDelay", "syncFetchInterval", "syncBackoffStart", "syncBackoffMax", "syncLogSize"]

    /// The settings of `vault`: the shared config, then the local one. A file that cannot be read
    /// throws (the daemon keeps its previous settings on a reload).
    public static func load(_ vault: Vault) throws -> SyncDaemonSettings {
        var settings = SyncDaemonSettings()
        try settings.apply(vault.config())
        if let local = TransferSettings.localConfig(vault) { settings.apply(local) }
        return settings
    }

    /// Takes every setting `config` names; values of the wrong type or out of range are ignored.
    mutating func apply(_ config: VaultConfig) {
        if let mode = config.value(forKey: "sync")?.stringValue?.lowercased() {
            automatic = mode == "auto"
        } else if case .bool(let on)? = config.value(forKey: "sync") {
            automatic = on
        }
        for key in Self.keys {
            guard let seconds = Self.number(config.value(forKey: key)) else { continue }
            set(key, seconds)
        }
        if case .bool(let on)? = config.value(forKey: "syncNotify") { notify = on }
    }

    /// Sets the setting of config key `key` (`syncDebounce`, …) to `value` when it is in range.
    public mutating func set(_ key: String, _ value: Double) {
        guard value.isFinite, value >= 0 else { return }
        switch key {
        case "syncDebounce": debounce = value
        case "syncMaxDelay": maxDelay = max(value, 0.1)
        case "syncFetchInterval" where value > 0: fetchInterval = value
        case "syncBackoffStart" where value > 0: backoffStart = value
        case "syncBackoffMax" where value > 0: backoffMax = value
        case "syncLogSize" where value >= 1024: logSize = Int(value)
        default: break
        }
    }

    static func number(_ value: FrontMatterValue?) -> Double? {
        switch value {
        case .int(let number)?: return Double(number)
        case .float(let number)?: return number
        case .string(let text)?: return Double(text.hasSuffix("s") ? String(text.dropLast()) : text)
        default: return nil
        }
    }
}
