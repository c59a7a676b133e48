import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSync
import Testing

/// One device of an in-process sync scenario: a vault that `VaultSync` syncs as this device
/// (`QUIRE_DEVICE` = `name`, `QUIRE_NOW` = the time each call passes), with its own empty HOME
/// and a commit author in the repository's own configuration (no user configuration counts).
struct KitDevice {
    let name: String
    let kit: KitVault
    var vault: Vault { kit.vault }
    var root: URL { kit.root }

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

/// A bare repository on disk and devices syncing through it in this process: `a` made the vault
/// with `VaultSetup` and pushed, the others are `VaultClone`s. Everything lives in the folder
/// of `a`'s `KitVault`; `remove()` removes it.
struct KitWorld {
    let first: KitDevice
    let bare: URL
    var directory: URL { first.root.deletingLastPathComponent() }

    /// Device `a` with `notes`, its remote set to a new bare repository and synced (at 12:00).
    init(notes: [String: String] = [:], firstName: String = "a") throws {
        let kit = try KitVault()
        first = KitDevice(name: firstName, kit: kit)
        bare = kit.root.deletingLastPathComponent().appendingPathComponent("remote.git")
        try kit.git(["init", "-q", "--bare", "-b", "main", bare.path], in: kit.root.deletingLastPathComponent())
        try kit.git(["config", "user.name", firstName])
        try kit.git(["config", "user.email", "\(firstName)@example.invalid"])
        for (path, text) in notes { try first.write(text, to: path) }
        _ = try VaultRemote.set(bare.path, in: kit.vault)
        try first.sync("2026-11-29T11:00:00Z")
    }

    /// Device `name` cloned from the remote.
    func clone(_ name: String) throws -> KitDevice {
        let root = directory.appendingPathComponent(name)
        let home = directory.appendingPathComponent("home-\(name)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                           "QUIRE_DEVICE": name]
        _ = try VaultClone.run(.init(url: bare.path, root: root, displayName: name, environment: environment,
                                     now: Date(timeIntervalSince1970: 1_795_000_000), driverProgram: "/usr/bin/quire"))
        let device = KitDevice(name: name, kit: KitVault(vault: try Vault(at: root), home: home))
        try device.git(["config", "user.name", name])
        try device.git(["config", "user.email", "\(name)@example.invalid"])
        return device
    }

    /// Two devices: `a` with `notes`, synced, and `b` cloned.
    static func pair(_ notes: [String: String]) throws -> (KitWorld, KitDevice, KitDevice) {
        let world = try KitWorld(notes: notes)
        return (world, world.first, try world.clone("b"))
    }

    /// A teammate's plain git clone of the remote (no quire: no merge driver, no `.quire/local`).
    func plainClone(_ name: String) throws -> URL {
        let folder = directory.appendingPathComponent(name)
        try first.kit.git(["clone", "-q", bare.path, folder.path], in: directory)
        return folder
    }

    /// The git CLI in `folder` as teammate `author`, its author and commit time `at` (ISO 8601).
    @discardableResult
    func plainGit(_ arguments: [String], in folder: URL, author: String = "Ben", at time: String) throws -> String {
        try first.kit.git(["-c", "user.name=\(author)", "-c", "user.email=\(author.lowercased())@example.invalid"] + arguments,
                          in: folder, environment: ["GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time])
    }

    /// The file at `path` on the remote's `main`; nil when it has none.
    func remoteFile(_ path: String) throws -> String? {
        try? first.kit.git(["show", "main:\(path)"], in: bare, trimmed: false)
    }

    /// The remote's `main`.
    func remoteHead() throws -> String { try first.kit.git(["rev-parse", "main"], in: bare) }

    func remove() { first.kit.remove() }
}

/// A note with canonical front matter (`extra` lines before `updatedAt`), as the sync
/// scenarios write them.
func kitNote(_ id: String, title: String, updated: String, extra: String = "", body: String = "Body.\n") -> String {
    "---\nid: \(id)\ntitle: \(title)\n\(extra)updatedAt: \(updated)\n---\n" + body
}
