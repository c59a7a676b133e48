import Foundation

/// Hides credentials in text that may hold URLs (`https://user:secret@host` → `https://user:***@host`).
public enum Redaction {
    /// `text` with the password part of every URL in it replaced by `***`.
    public static func text(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: "(://[^/@\\s:]*):[^/@\\s]*@") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "$1:***@")
    }
}
