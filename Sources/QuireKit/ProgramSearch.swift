import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds and runs the few external programs quire's front ends may call (`systemctl`,
/// `notify-send`): looked up on the caller's `PATH`, run with its environment, never through a
/// shell.
enum ProgramSearch {
    /// The first executable `name` on `PATH`.
    static func find(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `program` with `arguments` and waits; returns its exit code and what it wrote to
    /// standard output and error (nil when it could not be started).
    static func run(_ program: String, _ arguments: [String], environment: [String: String]) -> (code: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
