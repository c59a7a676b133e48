import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the user's editor the way git runs `core.editor`: `/bin/sh -c '<editor> "$@"'` as a
/// `ForegroundChild` (in the terminal's foreground group, Ctrl-C going to the editor).
struct EditorLauncher {
    /// How the editor ended.
    typealias Outcome = ForegroundChild.Outcome

    /// The editor command line: `$VISUAL`, else `$EDITOR` (non-empty ones), else `vi`.
    let command: String

    init(environment: [String: String]) {
        command = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
    }

    /// Opens `path` in the editor with `environment` and waits for it to end.
    func edit(path: String, environment: [String: String]) throws -> Outcome {
        do {
            return try ForegroundChild.run("/bin/sh", arguments: ["/bin/sh", "-c", "\(command) \"$@\"", "quire-edit", path],
                                           environment: environment)
        } catch {
            throw startFailure(error.code, error.function)
        }
    }

    private func startFailure(_ code: Int32, _ function: String) -> CLIError {
        CLIError("cannot run the editor '\(command)' (\(function): \(String(cString: strerror(code))))",
                 hint: "set VISUAL or EDITOR to an editor command")
    }
}
