import Foundation

/// What a program a test ran printed on its standard output, and how it exited.
public struct ProgramOutput: Sendable {
    /// The exit status.
    public var code: Int32
    /// The standard output as text (UTF-8, invalid bytes replaced).
    public var text: String

    /// Runs `program` with `arguments` in `directory` (nil: the test's own) with exactly
    /// `environment` (nil: the test's) and `input` as its standard input (nil: the test's),
    /// standard error discarded, and waits for it to end.
    public static func run(_ program: String, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String]? = nil, input: FileHandle? = nil) throws -> ProgramOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        if let input { process.standardInput = input }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramOutput(code: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }
}
