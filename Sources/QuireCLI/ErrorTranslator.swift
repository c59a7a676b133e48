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
        if let translated = SyncErrorTranslator.translate(error) { return translated }
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
        default:
            return CLIError(error.description)
        }
    }
}
