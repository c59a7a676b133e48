import QuireCore

/// A note's Markdown with its `%%` comments taken out (`MarkdownBody.commentRanges`, the rule
/// every reader shares), and byte ranges of the original moved to where they now stand: what the
/// HTML and terminal renderers parse, so a page or `show --render` never shows a comment.
struct CommentFreeSource {
    /// The Markdown without comments.
    let markdown: String
    private let removed: [Range<Int>]

    /// Takes the comments out of `markdown`.
    init(_ markdown: String) {
        removed = MarkdownBody.commentRanges(in: markdown)
        self.markdown = removed.isEmpty ? markdown : MarkdownBody.withoutComments(markdown)
    }

    /// Where `range` of the original stands in `markdown`; nil when it overlaps a comment.
    func moved(_ range: Range<Int>) -> Range<Int>? {
        var shift = 0
        for comment in removed {
            if comment.upperBound <= range.lowerBound {
                shift += comment.count
            } else if comment.lowerBound < range.upperBound {
                return nil
            } else {
                break
            }
        }
        return (range.lowerBound - shift)..<(range.upperBound - shift)
    }
}
