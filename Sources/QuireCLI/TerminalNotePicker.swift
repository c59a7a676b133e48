import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The note picker of `quire edit` / `show` without a NOTE: fzf when it is on PATH, else a
/// numbered list of the most recent notes on standard error with a prompt read from the terminal
/// (`/dev/tty`) that takes a number or words (resolved as a NOTE argument, narrowing the list).
/// Only on a terminal (standard input and error); elsewhere the NOTE is a missing argument.
struct TerminalNotePicker {
    let context: CommandContext

    /// Throws the usage error of a missing NOTE unless standard input and error are a terminal:
    /// called while reading the arguments, before any vault is opened.
    static func requireTerminal() throws {
        guard isatty(0) == 1, isatty(2) == 1 else {
            throw CLIError.usage("missing argument NOTE",
                                 hint: "without NOTE, a picker of the vault's notes is offered only on a terminal")
        }
    }

    /// The note the user picks among `all` (`requireTerminal` said there is a terminal); a
    /// failure ("no note chosen") when the user cancels.
    func choose(_ all: VaultNotes) throws -> Note {
        let picker = NotePicker(resolver: all.resolver(context))
        guard !picker.recent.isEmpty else {
            throw CLIError("the vault has no notes", hint: "'quire new TITLE' makes one")
        }
        context.output.flush()
        let chosen: Note?
        if let fzf = FzfPicker(environment: context.environment) {
            chosen = try fzf.choose(picker, environment: context.environment)
        } else {
            chosen = try builtIn(picker)
        }
        guard let chosen else { throw CLIError("no note chosen", hint: "nothing was changed") }
        return chosen
    }

    /// The built-in picker: lists, reads an answer from the terminal, until a note is chosen or
    /// the answer is empty (or Ctrl-D, Ctrl-C).
    private func builtIn(_ picker: NotePicker) throws -> Note? {
        let terminal = open("/dev/tty", O_RDONLY | O_CLOEXEC)
        guard terminal >= 0 else {
            throw CLIError("cannot read the terminal (/dev/tty: \(String(cString: strerror(errno))))",
                           hint: "give the NOTE as an argument")
        }
        defer { close(terminal) }
        // Ctrl-C cancels the picker instead of ending quire, without a race: SIGINT gets a
        // handler that does nothing and stays blocked except inside pselect, which unblocks it
        // atomically and returns EINTR for one that arrives (or is pending) while it waits.
        var interrupt = sigaction()
        interrupt.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&interrupt.sa_mask)
        var savedInterrupt = sigaction()
        sigaction(SIGINT, &interrupt, &savedInterrupt)
        defer { sigaction(SIGINT, &savedInterrupt, nil) }
        var interruptOnly = sigset_t()
        sigemptyset(&interruptOnly)
        sigaddset(&interruptOnly, SIGINT)
        var savedMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &interruptOnly, &savedMask)
        defer { pthread_sigmask(SIG_SETMASK, &savedMask, nil) }
        var waitMask = savedMask
        sigdelset(&waitMask, SIGINT)
        let output = context.output
        var matches = picker.recent
        while true {
            let shown = Array(matches.prefix(NotePicker.shownCount))
            let width = String(shown.count).count
            for (index, note) in shown.enumerated() {
                let number = String(index + 1)
                let folder = note.folder.isEmpty ? "" : "  (\(note.folder)/)"
                output.error(String(repeating: " ", count: width - number.count + 2) + "\(number)  \(note.title)\(folder)")
            }
            if matches.count > shown.count {
                output.error("  … \(Count.of(matches.count - shown.count, "more note")); type words to narrow")
            }
            output.promptOnError("note (number or words, Enter for none): ")
            guard let answer = readLine(terminal, waitMask: waitMask) else {
                output.error("")
                return nil
            }
            switch try picker.answer(answer, shown: shown) {
            case .chosen(let note): return note
            case .cancelled: return nil
            case .narrowed(let notes): matches = notes
            case .noMatch: output.error("no note matches '\(answer.trimmingCharacters(in: .whitespaces))'")
            }
        }
    }

    /// One line read from `descriptor` without its line break; nil at the end of input, when
    /// the read fails, or when a signal (Ctrl-C) interrupts the wait, done with `waitMask`.
    private func readLine(_ descriptor: Int32, waitMask: sigset_t) -> String? {
        var mask = waitMask
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard Self.waitReadable(descriptor, mask: &mask) else { return nil }  // EINTR: Ctrl-C
            let count = read(descriptor, &byte, 1)
            if count < 0 { return nil }
            if count == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Waits until `descriptor` (below FD_SETSIZE, as a descriptor opened early is) can be read,
    /// with `mask` as the signal mask while waiting; false when a signal or an error ends the wait.
    private static func waitReadable(_ descriptor: Int32, mask: inout sigset_t) -> Bool {
        guard descriptor < FD_SETSIZE else { return true }
        var readable = fd_set()
        // FD_SET is a C macro: bit `descriptor` of the set's array of longs.
        withUnsafeMutableBytes(of: &readable) { raw in
            let words = raw.bindMemory(to: Int.self)
            words[Int(descriptor) / Int.bitWidth] |= 1 << (Int(descriptor) % Int.bitWidth)
        }
        return pselect(descriptor + 1, &readable, nil, nil, nil, &mask) > 0
    }
}
