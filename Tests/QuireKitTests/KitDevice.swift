import Foundation
import QuireCore
import QuireKit
import QuireSync
import Testing

/// One device of an in-process sync scenario: a vault that `VaultSync` syncs as this device
/// (`QUIRE_DEVICE` = `name`, `QUIRE_NOW` = the time each call passes), with its own empty HOME
/// and its name as the commit author in the repository's own configuration.
struct KitDevice {
    let name: String
    let kit: KitVault
    var vault: Vault { kit.vault }
    var root: URL { kit.root }

    /// Device `name` of the vault in `kit`, its commit author `name` written to the repository's
    /// own configuration (no git process: the scenarios make many devices).
    init(name: String, kit: KitVault) throws {
        self.name = name
        self.kit = kit
        let config = kit.root.appendingPathComponent(".git/config")
        let handle = try FileHandle(forWritingTo: config)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("[user]\n\tname = \(name)\n\temail = \(name)@example.invalid\n".utf8))
    }

    /// The environment of one call on this device at `now` (ISO 8601).
    func environment(_ now: String) -> [String: String] {
        kit.environment.merging(["QUIRE_DEVICE": name, "QUIRE_NOW": now]) { $1 }
    }

    /// One sync (and the link repair that may follow it), which must not throw.
    @discardableResult
    func sync(_ now: String = "2026-11-29T12:00:00Z", strategy: MergeStrategy? = nil, push: Bool = true) throws -> VaultSyncOutcome {
        var options = VaultSyncOptions(environment: environment(now), strategy: strategy, push: push)
        options.waitForDaemon = 0
        return try VaultSync.runRepairingLinks(vault, options: options)
    }

    func write(_ text: String, to path: String) throws { try kit.write(text, to: path) }
    func read(_ path: String) throws -> String { try kit.read(path) }
    func exists(_ path: String) -> Bool { kit.exists(path) }
    func remove(_ path: String) throws { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }

    /// Sets a file's modification time (an edit in another editor is stamped from it).
    func touch(_ path: String, _ iso: String) throws {
        let date = try #require(QuireClock.parseISO8601(iso))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root.appendingPathComponent(path).path)
    }

    /// Runs the git CLI in this vault (its author `t`).
    @discardableResult
    func git(_ arguments: [String]) throws -> String { try kit.git(arguments) }

    /// The tree of HEAD.
    func headTree() throws -> String { try git(["rev-parse", "HEAD^{tree}"]) }

    /// Every file of the work tree outside `.git/`, `.quire/local/` and `.quire/cache/`, as text.
    func files() throws -> [String: String] {
        var files: [String: String] = [:]
        let base = root.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
        for case let url as URL in walker {
            let path = String(url.standardizedFileURL.path.dropFirst(base.count))
            if path == ".git" || path == ".quire/local" || path == ".quire/cache" {
                walker.skipDescendants()
                continue
            }
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }
        return files
    }

    /// The conflicts `quire conflicts` lists on this device (not dismissed), newest first.
    func conflicts() throws -> [ConflictRecord] { try ConflictLog(vaultRoot: root).records() }
}
