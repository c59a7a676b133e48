import Foundation
import QuireCore
import QuireKit

/// Turns any error a command throws into what the user sees: a message, a hint and an exit code.
/// This is the one place where library errors meet exit codes.
enum ErrorTranslator {
    static func translate(_ error: Error) -> CLIError {
        if let error = error as? CLIError { return error }
        if let error = error as? CoreError { return translate(core: error) }
        if let error = error as? MoveError { return translate(move: error) }
        if let error = error as? KitError { return translate(kit: error) }
        if let translated = SyncErrorTranslator.translate(error) { return translated }
        if let translated = CryptoErrorTranslator.translate(error) { return translated }
        if let error = error as? SiteExportError { return translate(export: error) }
        if let error = error as? ImportError, case .notEntries = error {
            return CLIError(error.description, hint: "put the entries in an array ([{…}, {…}]) or one a line; see 'quire import --help'")
        }
        return CLIError(String(describing: error))
    }

    /// A move that could not happen.
    private static func translate(move error: MoveError) -> CLIError {
        switch error {
        case .readOnly:
            return CLIError(error.description, hint: "make it writable (chmod u+w), or add --force to change it anyway")
        case .destinationExists, .moveFailed:
            return CLIError(error.description)
        }
    }

    private static func translate(export error: SiteExportError) -> CLIError {
        switch error {
        case .destinationNotEmpty:
            return CLIError(error.description, hint: "give a new or empty folder; quire replaces only a site it wrote itself")
        case .destinationHoldsVault, .destinationNotAFolder:
            return CLIError(error.description, hint: "give a folder of its own for the site, e.g. 'quire export --html site'")
        default:
            return CLIError(error.description)
        }
    }

    /// Messages in the form `<what> (<path or detail>)` of DESIGN.md §5, with a hint.
    private static func translate(core error: CoreError) -> CLIError {
        switch error {
        case .vaultNotFound:
            return CLIError(error.description,
                            hint: "run 'quire init' to make this folder a vault, or pass --vault PATH")
        case let .vaultNotAtWorkTreeRoot(vault, root):
            return CLIError("a vault must be the root of its git work tree (\(vault) is inside \(root))",
                            hint: "run quire at the root of the repository, or keep the vault in a repository of its own")
        case .noteNotFound:
            return CLIError(error.description,
                            hint: "give a path, an id, a title or words of one, or an id prefix of 4+ characters; 'quire list' shows the notes")
        case let .ambiguousNote(query, candidates):
            let shown = candidates.count > 10 ? candidates.prefix(10) + ["and \(candidates.count - 10) more"] : candidates
            return CLIError("'\(query)' matches several notes (\(shown.joined(separator: ", ")))",
                            hint: "give the path or the full id")
        case .unreadableFrontMatter:
            return CLIError(error.description, hint: "fix the front matter in an editor ('quire check' lists every problem)")
        case .readOnlyFrontMatter:
            return CLIError(error.description, hint: "quire edits YAML front matter only; edit this note in an editor")
        case let .pathOutsideVault(path):
            return CLIError("the path leaves the vault (\(path))", hint: "paths must stay inside the vault")
        case let .linkIntoHiddenFolder(path):
            return CLIError("the path is a symbolic link into a hidden folder, never followed (\(path))",
                            hint: "a link may lead to notes and files of the vault, never into .git, .quire or another hidden folder")
        case let .invalidPath(path):
            return CLIError("invalid path ('\(path)')", hint: "paths must stay inside the vault")
        case let .notADirectory(path):
            return CLIError("not a directory (\(path))", hint: "give the folder of an existing vault, or run 'quire init' there")
        case let .readFailed(path, reason):
            return CLIError("cannot read \(path) (\(reason))")
        case let .writeFailed(path, reason):
            return CLIError("cannot write \(path) (\(reason))")
        case .invalidTime:
            return CLIError(error.description, hint: "QUIRE_NOW takes a time like 2026-11-29T12:00:00Z")
        case .invalidConfig:
            return CLIError(error.description, hint: "fix .quire/config.yml in an editor")
        case let .vaultFormatTooNew(version, supported):
            return CLIError("this vault's format is version \(version), newer than this quire knows (\(supported)); nothing was written",
                            hint: "a newer quire migrated this vault: update quire on this device (read commands still work)")
        default:
            return CLIError(error.description)
        }
    }

    /// The refusals and failures of QuireKit's workflows.
    static func translate(kit error: KitError) -> CLIError {
        switch error {
        case .unknownRevision(let revision):
            return CLIError("no commit '\(revision)' in this vault's history", hint: "'quire history NOTE' lists the commits")
        case let .notInCommit(path, revision):
            return CLIError("\(path) is not in commit \(revision)", hint: "'quire history NOTE' lists the commits that have it")
        case .nothingToRestore(let path):
            return CLIError("\(path) exists; nothing to restore",
                            hint: "to go back to an older version use --at REV ('quire history NOTE' lists them)")
        case .notDeleted(let path):
            return CLIError("\(path) is not a deleted note in history or in the trash",
                            hint: "'quire history --deleted' lists deleted notes")
        case let .idInUse(path, other):
            return CLIError("the version to restore at \(path) is the note \(other) (same id): restored, it would be a second copy",
                            hint: "restore onto that note instead: quire restore \(other) with the same option")
        case .unsyncedChanges(let path):
            return CLIError("\(path) has changes not synced yet; restoring would overwrite them",
                            hint: "run 'quire sync' first (your version then stays in history), or add --force to keep a copy in .quire/local/trash/ and restore")
        case .writeProtected(let path):
            return CLIError("the note is read-only, it is left as it is (\(path))",
                            hint: "make it writable (chmod u+w), or add --force to change it anyway")
        case let .noLosingVersion(id, path, reason):
            return CLIError("the losing side of conflict \(id) has no version of \(path): the note was deleted there",
                            hint: "only the deletion lost (\(reason)); 'quire history \(path)' lists the note's versions")
        case .noWorkTree:
            return CLIError("the vault has no work tree")
        case let .moveTargetExists(from, to):
            return CLIError("cannot move \(from), the target already exists (\(to))")
        case let .moveFailed(from, to, reason):
            return CLIError("cannot move \(from) to \(to) (\(reason))")
        case let .removeFailed(path, reason):
            return CLIError("cannot remove \(path) (\(reason))")
        case .noRemote:
            return CLIError("this vault has no remote yet", hint: "set one with 'quire remote URL' (e.g. git@github.com:me/notes.git)")
        case .alreadyVault(let path):
            return CLIError("the folder is already a quire vault (\(path))", hint: "nothing was changed; run quire commands inside it")
        case let .cannotCreateFolder(path, reason):
            return CLIError("cannot create \(path) (\(reason))")
        case let .frontMatterUnreadable(path, line, reason):
            return CLIError("front matter is unreadable, the note is left as it is (\(path)\(line.map { ":\($0)" } ?? ""): \(reason))",
                            hint: "fix the front matter in an editor ('quire check' lists every problem)")
        case let .frontMatterReadOnly(path, format):
            return CLIError("\(format) front matter is read-only (\(path))", hint: "quire edits YAML front matter only; edit this note in an editor")
        case .noteKeptChanging(let path):
            return CLIError("the note kept changing while quire edited it (\(path))", hint: "try again; the note is as the last writer left it")
        case .noteGone(let path):
            return CLIError("the note is gone after editing (\(path))", hint: "the editor removed or renamed the file; 'quire rm' removes notes restorably")
        case .injectedFault(let point):
            return CLIError("injected fault at \(point) (QUIRE_FAULT)", hint: "unset QUIRE_FAULT")
        case let .invalidValue(key, text, expected?):
            return CLIError.usage("\(key) takes \(expected), not '\(text)'")
        case let .invalidValue(key, text, nil):
            return CLIError.usage("cannot read the value of '\(key)' (\(text))", hint: "quote text that YAML would misread, e.g. \(key)='\"\(text)\"'")
        case let .mergeInputUnreadable(file, reason):
            return CLIError("cannot read \(file) (\(reason))")
        case let .mergedNoteUnwritable(file, reason):
            return CLIError("cannot write the merged note (\(file): \(reason))")
        case .noSuchFolder(let path):
            return CLIError("no such folder (\(path))", hint: "'quire folders' lists the folders")
        case .folderExists(let path):
            return CLIError("the folder already exists (\(path))", hint: "choose a new name, or move notes with 'quire mv'")
        case .folderIntoItself(let path):
            return CLIError("cannot move a folder into itself (\(path))")
        case .folderNamedAsNote(let path):
            return CLIError("'\(path)' is named as a note, not a folder: quire mv moves a note into a folder",
                            hint: "to give the note another file name, change its title: quire rename NOTE NEW-TITLE",
                            code: .usage)
        case .folderNotEmpty(let name):
            return CLIError("\(name) exists and is not empty", hint: "clone into a new folder")
        case let .serviceUnitUnwritable(executable, reason):
            return CLIError("no unit was written: \(reason) (\(executable))",
                            hint: "install quire at a plain path (e.g. ~/.local/bin/quire) and run 'quire service install' from there",
                            code: .usage)
        case let .cloneInterrupted(signal, folder):
            return CLIError("the clone was stopped by \(signal == 15 ? "SIGTERM" : "SIGINT"); nothing was left in \(folder)",
                            hint: "run 'quire clone' again", code: signal == 15 ? .terminated : .interrupted)
        }
    }
}
