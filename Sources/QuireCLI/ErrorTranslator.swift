import Foundation
import QuireCore

/// Turns any error a command throws into what the user sees: a message, a hint and an exit code.
/// This is the one place where library errors meet exit codes.
enum ErrorTranslator {
    static func translate(_ error: Error) -> CLIError {
        if let error = error as? CLIError { return error }
        if let error = error as? CoreError { return translate(core: error) }
        if let translated = SyncErrorTranslator.translate(error) { return translated }
        return CLIError(String(describing: error))
    }

    private static func translate(core error: CoreError) -> CLIError {
        switch error {
        case .vaultNotFound:
            return CLIError(error.description,
                            hint: "run 'quire init' to make this folder a vault, or pass --vault PATH")
        case .vaultNotAtWorkTreeRoot:
            return CLIError(error.description,
                            hint: "run quire at the root of the repository, or keep the vault in a repository of its own")
        case .noteNotFound:
            return CLIError(error.description,
                            hint: "give a path, an id, an exact title or an id prefix of 4+ characters; 'quire list' shows the notes")
        case .ambiguousNote:
            return CLIError(error.description, hint: "give the path or the full id")
        case .unreadableFrontMatter:
            return CLIError(error.description, hint: "fix the front matter in an editor ('quire check' lists every problem)")
        case .readOnlyFrontMatter:
            return CLIError(error.description, hint: "quire edits YAML front matter only; edit this note in an editor")
        case .pathOutsideVault, .invalidPath:
            return CLIError(error.description, hint: "paths must stay inside the vault")
        case .invalidTime:
            return CLIError(error.description, hint: "QUIRE_NOW takes a time like 2026-11-29T12:00:00Z")
        case .notADirectory:
            return CLIError(error.description, hint: "give the folder of an existing vault, or run 'quire init' there")
        case .invalidConfig:
            return CLIError(error.description, hint: "fix .quire/config.yml in an editor")
        default:
            return CLIError(error.description)
        }
    }
}
