import Foundation

/// The one rule for naming a new file beside others (`quire new`, `import`, `rename`, `mv`,
/// `restore`, the Joplin import): `stem.ext`, else `stem-2.ext`, `stem-3.ext`, …, compared
/// case-insensitively (as macOS and Windows would), every candidate cut to
/// `SafeFileName.maxBytes` at a character boundary with its number and extension kept. The stem
/// comes from the vault's `fileNames` style (`FileNameStyle`) where a title names the file.
public enum FreeFileName {
    /// The first free name for `stem` + `ext` (`ext` with its dot, or empty): free when its
    /// lowercased form is not in `taken` (lowercased names).
    public static func first(stem: String, ext: String, taken: Set<String>) -> String {
        func named(_ suffix: String) -> String {
            SafeFileName.prefix(stem, bytes: SafeFileName.maxBytes - suffix.utf8.count) + suffix
        }
        var candidate = named(ext)
        var number = 2
        while taken.contains(candidate.lowercased()) {
            candidate = named("-\(number)\(ext)")
            number += 1
        }
        return candidate
    }

    /// The first free name for `fileName` (its extension kept: `split`).
    public static func first(_ fileName: String, taken: Set<String>) -> String {
        let (stem, ext) = split(fileName)
        return first(stem: stem, ext: ext, taken: taken)
    }

    /// `name` as stem and extension (with its dot): `.md`, else what follows the last dot that
    /// does not start the name; empty when there is none.
    public static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}

extension Vault {
    /// `folder/<name>.md` for `title` (named in `style`), numbered past the folder's files
    /// (`freePath(folder:fileName:)`).
    public func availablePath(folder: String, title: String, style: FileNameStyle = .slug) throws -> String {
        try freePath(folder: folder, fileName: style.fileName(forTitle: title))
    }

    /// `folder/fileName`, or numbered `-2`, `-3`, … before its extension (`FreeFileName`) when a
    /// file of the folder or one of `avoiding` (vault paths already promised) has that name,
    /// letter case ignored.
    public func freePath(folder: String, fileName: String, avoiding: Set<String> = []) throws -> String {
        let folderPath = folder.isEmpty ? "" : try resolveSafePath(folder)
        let prefix = folderPath.isEmpty ? "" : folderPath + "/"
        var taken = Set(((try? FileManager.default.contentsOfDirectory(atPath: url(for: folderPath).path)) ?? [])
            .map { $0.lowercased() })
        for path in avoiding where path.lowercased().hasPrefix(prefix.lowercased()) {
            let name = path.dropFirst(prefix.count)
            if !name.contains("/") { taken.insert(name.lowercased()) }
        }
        return try resolveSafePath(prefix + FreeFileName.first(fileName, taken: taken))
    }
}
