import Foundation

/// Where the package and the built `quire` binary are, for the tests that run it (the command
/// line's and the language server's).
public enum BuiltQuire {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `quire` binary next to the test bundle (`swift build` puts both in one folder).
    public static let binary: URL = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("quire"))
                directory = directory.deletingLastPathComponent()
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/quire"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? packageRoot.appendingPathComponent(".build/debug/quire")
    }()
}
