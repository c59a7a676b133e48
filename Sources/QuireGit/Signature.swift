import CLibGit2
import Foundation

/// An author or committer: name, email and time (with its UTC offset), as a plain value.
public struct Signature: Equatable, Sendable {
    /// The person's name.
    public var name: String
    /// The person's email.
    public var email: String
    /// When (to the second).
    public var time: Date
    /// Offset from UTC in minutes (e.g. 120 for +0200).
    public var offsetMinutes: Int

    /// Creates a signature; tests pass explicit times.
    public init(name: String, email: String, time: Date, offsetMinutes: Int = 0) {
        self.name = name
        self.email = email
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    init(_ raw: UnsafePointer<git_signature>) {
        name = raw.pointee.name.map { String(cString: $0) } ?? ""
        email = raw.pointee.email.map { String(cString: $0) } ?? ""
        time = Date(timeIntervalSince1970: TimeInterval(raw.pointee.when.time))
        offsetMinutes = Int(raw.pointee.when.offset)
    }

    /// Runs `body` with a libgit2 signature; the signature is freed when `body` returns.
    func withRaw<T>(_ body: (UnsafeMutablePointer<git_signature>) throws -> T) throws -> T {
        var raw: UnsafeMutablePointer<git_signature>?
        let seconds = git_time_t(time.timeIntervalSince1970.rounded(.down))
        try check(git_signature_new(&raw, name, email, seconds, Int32(offsetMinutes)),
                  "git_signature_new")
        defer { git_signature_free(raw) }
        guard let signature = raw else {
            throw GitError(function: "git_signature_new", code: .other(-1), message: "no signature")
        }
        return try body(signature)
    }
}
