import Foundation
import QuireCore
import QuireSearch

/// The notes that may hold a link whose name key (`LinkTarget.nameKey`) is one of the keys
/// given, or nil when any note may: what lets a move, a rename or a repair read those notes
/// instead of every note (`MoveOptions.linkingNotes`).
public typealias LinkingNotes = @Sendable (Set<String>) -> Set<String>?

extension MoveOptions {
    /// `linkingNotes` answered by `catalog`'s link terms (`Catalog.notesLinking(toNameKeys:)`).
    public static func linkingNotes(in catalog: Catalog) -> LinkingNotes {
        { keys in catalog.notesLinking(toNameKeys: keys) }
    }

    /// Every key a link that names one of `names` (vault paths, titles, aliases) can have:
    /// the whole name's, its file name's without `.md`, and `LinkTarget.nameKey`'s.
    static func linkKeys(naming names: some Sequence<String>) -> Set<String> {
        var keys = Set<String>()
        for name in names {
            keys.insert(LinkResolver.key(name))
            keys.insert(LinkResolver.key(LinkPathText.withoutExtension(LinkPathText.fileName(of: name))))
            if let key = LinkTarget.nameKey(of: name) { keys.insert(key) }
        }
        return keys
    }
}
