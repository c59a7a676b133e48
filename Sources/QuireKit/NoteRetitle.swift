import Foundation
import QuireCore

/// Renaming a note by its title (`quire rename`, an editor's rename): the note gets the new
/// title and, when the vault's `fileNames` style wants it, the file name that goes with it.
public enum NoteRetitle {
    /// The move plan that gives the note at `path` (in `folder`) the title `title`: the title,
    /// and a new file name in the same folder when the vault's file-name style no longer fits
    /// the old one (never over an existing file: `-2`, `-3`, … are tried). `current`: the title
    /// the note has now (its `title`, else its file name); the same title asked again changes
    /// nothing (a note titled by its file name was given a front matter for it).
    public static func plan(vault: Vault, path: String, folder: String, title: String, current: String? = nil) throws -> MovePlan {
        let style = try vault.config().fileNameStyle()
        let name = (path as NSString).lastPathComponent
        var destination = path
        if !style.fits(name, title: title) {
            destination = try freePath(in: vault, folder: folder, fileName: style.fileName(forTitle: title))
        }
        if destination == path && current == title { return MovePlan(notes: [:], titles: [:]) }
        return MovePlan(notes: destination == path ? [:] : [ExactPath(path): destination], titles: [ExactPath(path): title])
    }

    /// `folder/fileName`, or with `-2`, `-3`, … before `.md` when taken (`FileMover.freePath`).
    public static func freePath(in vault: Vault, folder: String, fileName: String, avoiding: Set<String> = []) throws -> String {
        try FileMover.freePath(in: vault, folder: folder, fileName: fileName, avoiding: avoiding)
    }
}
