import Foundation
import QuireGit

/// Reads `Key: value` trailers from the last paragraph of a commit message.
public enum CommitTrailers {
    /// Every value of trailer `key`, in order.
    public static func values(_ key: String, in message: String) -> [String] {
        let prefix = key.lowercased() + ":"
        return message.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.lowercased().hasPrefix(prefix) else { return nil }
            return text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The first value of trailer `key`.
    public static func value(_ key: String, in message: String) -> String? {
        values(key, in: message).first
    }

    /// The device that made `commit`: its `Quire-Device` trailer, else its author's name (a
    /// commit made without quire). Every place that names a commit's device asks here.
    static func device(of commit: CommitInfo) -> String {
        value("Quire-Device", in: commit.message) ?? commit.author.name
    }
}
