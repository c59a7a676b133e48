/// Maps sync and git errors to exit codes 3–7 (DESIGN.md §5).
enum SyncErrorTranslator {
    static func translate(_ error: Error) -> CLIError? {
        nil
    }
}
