import Foundation

/// Asks the git credential helper configured for the user (`credential.helper`) for a user name
/// and password, through `git credential fill` — the one external git program quire runs
/// (DESIGN.md §4). Never prompts: `GIT_TERMINAL_PROMPT=0`, standard input is the request only,
/// and the helper is abandoned after 10 seconds (with every process it started). The answer is
/// never logged.
enum CredentialHelper {
    struct Answer {
        var user: String
        var password: String
    }

    static func fill(url: String, user: String?, home: URL) -> Answer? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host,
              let git = executable("git") else { return nil }
        var request = "protocol=\(scheme)\nhost=\(host)\(components.port.map { ":\($0)" } ?? "")\n"
        if !components.path.isEmpty { request += "path=\(components.path.dropFirst())\n" }
        if let user { request += "username=\(user)\n" }
        request += "\n"
        let process = Process()
        process.executableURL = git
        process.arguments = ["credential", "fill"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = "/bin/false"
        environment["SSH_ASKPASS"] = "/bin/false"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        input.fileHandleForWriting.write(Data(request.utf8))
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            // Foundation starts git in a process group of its own: the whole group goes, so that
            // a helper that never answers does not outlive it (killing git alone left the helper
            // running, one per sync of the daemon).
            kill(-process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let password = fields["password"], !password.isEmpty else { return nil }
        return Answer(user: fields["username"] ?? user ?? "quire", password: password)
    }

    private static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
