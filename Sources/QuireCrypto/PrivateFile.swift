import Foundation
import QuireCore

/// A file only its owner may read (mode 0600), for a device's secrets (its identity, the key
/// it remembers): JSON written atomically (`AtomicFile`) with those permissions; its folder is
/// created 0700 when missing.
enum PrivateFile {
    /// The file's JSON, or nil when there is no file at `path`; refuses a format `version`
    /// newer than `formatVersion`.
    static func readJSON(_ path: String, formatVersion: Int) throws(CryptoError) -> JSON? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CryptoError.fileFailed(path: path, reason: "cannot be read")
        }
        let json: JSON
        do { json = try JSON.parse(data) } catch { throw CryptoError.malformed(what: path, reason: "\(error)") }
        if let version = json["version"]?.int, version > formatVersion {
            throw CryptoError.unsupportedVersion(what: path, version: version)
        }
        return json
    }

    /// Replaces the file at `path` with `json`, readable by its owner only.
    static func write(_ json: JSON, to path: String) throws(CryptoError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            try AtomicFile.write(Data(json.encoded(.compact)), to: URL(fileURLWithPath: path), displayPath: path,
                                 permissions: 0o600)
        } catch {
            throw CryptoError.fileFailed(path: path, reason: "\(error)")
        }
    }
}
