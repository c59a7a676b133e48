import QuireCore
import QuireSync

/// The paths the synced `.quire/config.yml` names (`daily.folder`, `daily.format`,
/// `daily.template`), and those Obsidian's settings name (`ObsidianSettings`): another device
/// or program wrote them, so each is checked like a path of a remote tree
/// (`IncomingPath`: no absolute path, no `..`, nothing a file system takes for `.git`, not
/// `.quire/local/`), and it may name no hidden folder or file either. A refused one is an
/// invalid configuration naming its key; nothing is written.
public enum ConfigPath {
    /// `value` (the vault-relative path named by `key`) when it may be written to; throws
    /// `CoreError.invalidConfig` naming `key` (and `written`, the key's text when the path is made
    /// from it) otherwise.
    /// `file` is the settings file that names it (`.quire/config.yml`, or Obsidian's own:
    /// `ObsidianSettings`).
    @discardableResult
    public static func check(_ value: String, key: String, written: String? = nil,
                             file: String = VaultConfig.relativePath) throws -> String {
        if let reason = refusal(value) {
            let shown = written.map { "'\($0)' makes '\(value)', which" } ?? "'\(value)'"
            throw CoreError.invalidConfig(path: file, line: nil,
                                          reason: "\(key) \(shown) is \(reason); quire writes only to visible folders of the vault")
        }
        return value
    }

    /// `value` when it names one file or folder (no `/`) that `check` accepts; throws
    /// `CoreError.invalidConfig` naming `key` otherwise.
    @discardableResult
    public static func checkName(_ value: String, key: String, file: String = VaultConfig.relativePath) throws -> String {
        if value.contains("/") {
            throw CoreError.invalidConfig(path: file, line: nil,
                                          reason: "\(key) '\(value)' is a path; it takes a name only")
        }
        return try check(value, key: key, file: file)
    }

    /// Why `path` may not be written to, or nil.
    static func refusal(_ path: String) -> String? {
        if let reason = IncomingPath.refusal(path) { return reason }
        if let hidden = Vault.hiddenComponent(of: path) {
            return "in a hidden folder (`\(hidden)`)"
        }
        return nil
    }
}
