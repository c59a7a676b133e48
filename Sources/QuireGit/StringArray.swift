import CLibGit2
import Foundation

/// Helpers to pass Swift strings to libgit2 and read its string arrays back.
enum StringArray {
    /// Runs `body` with a `git_strarray` of copies of `strings`; the copies are freed after.
    static func with<T>(_ strings: [String], _ body: (UnsafeMutablePointer<git_strarray>) throws -> T) rethrows -> T {
        var cStrings: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return try cStrings.withUnsafeMutableBufferPointer { buffer in
            var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
            return try body(&array)
        }
    }

    /// Copies the strings out of an array libgit2 filled; the caller still frees it.
    static func read(_ array: git_strarray) -> [String] {
        var result: [String] = []
        for index in 0..<array.count {
            if let item = array.strings[index] {
                result.append(String(cString: item))
            }
        }
        return result
    }
}
