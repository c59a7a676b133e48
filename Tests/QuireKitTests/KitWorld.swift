import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSync
import Testing

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
        first = try KitDevice(name: firstName, kit: kit)
        bare = kit.root.deletingLastPathComponent().appendingPathComponent("remote.git")
        try kit.git(["init", "-q", "--bare", "-b", "main", bare.path], in: kit.root.deletingLastPathComponent())
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
        return try KitDevice(name: name, kit: KitVault(vault: try Vault(at: root), home: home))
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
