import Foundation

extension FileNameStyle {
    /// The style the notes already in a folder are named in (for `quire init`): `title` when
    /// more of their names read as titles (a space, or capitals in a name not all capitals:
    /// `Part 1 Basics.md`, `Meeting notes.md`) than as slugs (lowercase with a `-`:
    /// `meeting-notes.md`); other names (`ideas.md`, `README.md`, `dendron.ref.cli.md`) say
    /// nothing. `slug` when nothing tells. Hidden folders are not entered; at most `limit`
    /// notes are looked at.
    public static func detected(in folder: URL, limit: Int = 5_000) -> FileNameStyle {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil,
                                                           options: [.skipsHiddenFiles]) else { return .slug }
        var titles = 0, slugs = 0, seen = 0
        while let url = walker.nextObject() as? URL, seen < limit {
            let name = url.lastPathComponent
            guard name.lowercased().hasSuffix(".md") else { continue }
            seen += 1
            let stem = String(name.dropLast(3))
            let capitals = stem.contains { $0.isUppercase } && stem.contains { $0.isLowercase }
            if stem.contains(" ") || capitals {
                titles += 1
            } else if stem.contains("-"), stem == stem.lowercased() {
                slugs += 1
            }
        }
        return titles > slugs ? .title : .slug
    }
}
