import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Picks a note with `fzf` when it is on PATH: the candidate lines (`NotePicker.lines`) on its
/// standard input, its UI on the terminal, the chosen line back on its standard output.
struct FzfPicker {
    /// The fzf executable found on PATH.
    let executable: String

    /// The `fzf` on `environment`'s PATH, if any.
    init?(environment: [String: String]) {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let found = directories.lazy.map { $0 + "/fzf" }.first { path in
            var isFolder: ObjCBool = false
            return access(path, X_OK) == 0 && FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        guard let found else { return nil }
        executable = found
    }

    /// Runs fzf over `picker`'s notes; nil when the user chose nothing (Esc, Ctrl-C: fzf exits 1
    /// or 130).
    func choose(_ picker: NotePicker, environment: [String: String]) throws -> Note? {
        // Unnamed temporary files (tmpfile(3), gone at fclose), so neither side can fill a pipe.
        guard let candidates = tmpfile() else { throw failure(errno, "tmpfile") }
        defer { fclose(candidates) }
        guard let chosen = tmpfile() else { throw failure(errno, "tmpfile") }
        defer { fclose(chosen) }
        let text = Array(picker.lines.map { $0 + "\n" }.joined().utf8)
        guard fwrite(text, 1, text.count, candidates) == text.count, fflush(candidates) == 0 else {
            throw failure(errno, "fwrite")
        }
        rewind(candidates)
        let arguments = [executable, "--delimiter=\t", "--with-nth=1,2", "--tiebreak=index", "--no-multi", "--prompt=note> "]
        let outcome: ForegroundChild.Outcome
        do {
            outcome = try ForegroundChild.run(executable, arguments: arguments, environment: environment,
                                              input: fileno(candidates), output: fileno(chosen))
        } catch {
            throw failure(error.code, error.function)
        }
        switch outcome {
        case .exited(0):
            break
        case .exited(1), .exited(130):
            return nil
        case .exited(let status):
            throw CLIError("fzf exited with status \(status) (\(executable))", hint: "give the NOTE as an argument instead")
        case .signaled(let signal):
            throw CLIError("fzf was ended by signal \(signal) (\(executable))", hint: "give the NOTE as an argument instead")
        }
        rewind(chosen)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, chosen)
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let note = picker.note(forLine: line) else {
            if line.isEmpty { return nil }
            throw CLIError("fzf chose a line that names no note ('\(line)')", hint: "give the NOTE as an argument instead")
        }
        return note
    }

    private func failure(_ code: Int32, _ function: String) -> CLIError {
        CLIError("cannot run fzf (\(function): \(String(cString: strerror(code))))", hint: "give the NOTE as an argument instead")
    }
}
