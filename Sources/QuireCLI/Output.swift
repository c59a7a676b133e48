import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command's output goes: buffered standard output, standard error, and terminal facts.
public final class Output {
    private var buffer: [UInt8] = []
    private let progressLock = NSLock()
    private var progressShown = false
    private let outDescriptor: Int32
    private let errDescriptor: Int32
    /// Whether standard output is a terminal.
    public let stdoutIsTerminal: Bool
    /// Whether standard error is a terminal (progress is drawn only then).
    public let stderrIsTerminal: Bool
    /// Whether to color output (a terminal, and `NO_COLOR` unset).
    public let useColor: Bool
    /// `--quiet`: standard output and progress are dropped, and lines for standard error
    /// (warnings, notes) are held back — shown only if the command fails (`releaseHeld`).
    public var quiet = false
    private var held: [String] = []

    /// Creates an output on the given descriptors.
    public init(stdout: Int32 = 1, stderr: Int32 = 2, environment: [String: String]) {
        outDescriptor = stdout
        errDescriptor = stderr
        stdoutIsTerminal = isatty(stdout) == 1
        stderrIsTerminal = isatty(stderr) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        useColor = stdoutIsTerminal && !noColor && environment["TERM"] != "dumb"
    }

    /// Writes text to standard output (buffered).
    public func write(_ text: String) {
        guard !quiet else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes raw bytes to standard output (buffered).
    public func write(bytes: [UInt8]) {
        guard !quiet else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes raw bytes to standard output (buffered), copied from where they are.
    public func write(bytes: UnsafeRawBufferPointer) {
        guard !quiet else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a line to standard output.
    public func line(_ text: String = "") { write(text + "\n") }

    /// Writes a line to standard error (unbuffered, after flushing standard output); held back
    /// under `quiet`.
    public func error(_ text: String) {
        if quiet {
            progressLock.lock()
            held.append(text)
            progressLock.unlock()
            return
        }
        failure(text)
    }

    /// Writes a line to standard error even under `quiet` (the command's error), after the
    /// lines held back.
    public func failure(_ text: String) {
        releaseHeld()
        clearProgress()
        flush()
        Output.writeAll(Array((text + "\n").utf8), to: errDescriptor)
    }

    /// Writes a prompt to standard error without a newline (after flushing standard output).
    public func promptOnError(_ text: String) {
        clearProgress()
        flush()
        Output.writeAll(Array(text.utf8), to: errDescriptor)
    }

    /// Writes the lines held back under `quiet` to standard error (a command that failed).
    public func releaseHeld() {
        progressLock.lock()
        let lines = held
        held.removeAll()
        progressLock.unlock()
        guard !lines.isEmpty else { return }
        flush()
        Output.writeAll(Array(lines.map { $0 + "\n" }.joined().utf8), to: errDescriptor)
    }

    /// Writes to standard error without a newline (progress lines).
    public func progress(_ text: String) {
        guard stderrIsTerminal, !quiet else { return }
        progressLock.lock()
        progressShown = true
        progressLock.unlock()
        Output.writeAll(Array(text.utf8), to: errDescriptor)
    }

    /// Erases the progress line, if one is on the terminal.
    public func clearProgress() {
        progressLock.lock()
        let shown = progressShown
        progressShown = false
        progressLock.unlock()
        if shown { Output.writeAll(Array("\r\u{1B}[K".utf8), to: errDescriptor) }
    }

    /// Flushes buffered standard output.
    public func flush() {
        guard !buffer.isEmpty else { return }
        Output.writeAll(buffer, to: outDescriptor)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Wraps text in an ANSI style when color is on.
    public func styled(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = Glibc.write(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                pointer += written
            }
        }
    }
}

/// Counted nouns for messages: `1 note`, `2 notes`.
enum Count {
    static func of(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
