import Foundation
import QuireCore

/// `YYYYMMDDTHHMMSSZ` in UTC, for trash folders and backup refs.
public enum TrashStamp {
    /// `.quire/local/trash/<stamp>/<path>` for a note removed at `date`; when that is taken
    /// (the same path removed twice in one second) the folder `<stamp>-2`, `<stamp>-3`, …
    public static func freeTrashPath(for path: String, at date: Date, in vault: Vault) -> String {
        let stamp = text(date)
        var folder = stamp
        var counter = 2
        while FileManager.default.fileExists(atPath: vault.url(for: ".quire/local/trash/\(folder)/\(path)").path) {
            folder = "\(stamp)-\(counter)"
            counter += 1
        }
        return ".quire/local/trash/\(folder)/\(path)"
    }

    /// The newest copy of `path` in `.quire/local/trash/<stamp>/`, as a vault-relative path.
    public static func newestInTrash(_ path: String, vault: Vault) -> String? {
        let trash = vault.url(for: ".quire/local/trash")
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash.path)) ?? []
        for stamp in stamps.sorted(by: { isOlder($1, $0) }) {
            let candidate = ".quire/local/trash/\(stamp)/\(path)"
            if FileManager.default.fileExists(atPath: vault.url(for: candidate).path) { return candidate }
        }
        return nil
    }

    /// Whether trash folder `first` is older than `second` (`<stamp>-10` after `<stamp>-9`).
    public static func isOlder(_ first: String, _ second: String) -> Bool {
        func key(_ folder: String) -> (String, Int) {
            let parts = folder.split(separator: "-", maxSplits: 1)
            return (parts.first.map(String.init) ?? folder, parts.count > 1 ? Int(parts[1]) ?? 0 : 1)
        }
        return key(first) < key(second)
    }

    /// `20260102T020405Z`: a trash folder's name for a removal at `date` (`QuireClock.compactUTC`).
    public static func text(_ date: Date) -> String {
        QuireClock.compactUTC(date)
    }
}
