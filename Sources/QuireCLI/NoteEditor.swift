import QuireCore

/// What the commands that change a note share on the command line (QuireKit `NoteEdit` makes
/// the change).
enum NoteEditor {
    /// The `--force` option of the commands that change a note.
    static let forceOption = OptionSpec.flag("--force", help: "Change the note even when it is read-only.")
}
