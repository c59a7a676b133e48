/// How the number of notes with problems of their own (front matter, values, conflict markers)
/// is said: every command's warning and `quire check`'s summary give the same number in the
/// same words, while `check` also lists what only it looks for (links, shared titles, …).
enum ProblemCount {
    /// `1 note has problems in its front matter or text`, `15 notes have … in their …`.
    static func phrase(_ count: Int) -> String {
        count == 1 ? "1 note has problems in its front matter or text"
            : "\(count) notes have problems in their front matter or text"
    }
}
