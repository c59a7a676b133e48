/// Why the catalog cache could not be used or written. A cache that cannot be read is rebuilt
/// silently; one that cannot be written is reported (the search itself still works).
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No cache file yet.
    case missing
    /// Written by another version of the format.
    case oldVersion(UInt32)
    /// Damaged: what was wrong.
    case corrupt(String)
    /// An I/O failure: the path and the system's message.
    case io(path: String, message: String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case .missing: return "no catalog cache"
        case .oldVersion(let version): return "catalog cache has old format version \(version)"
        case .corrupt(let reason): return "catalog cache is damaged: \(reason)"
        case .io(let path, let message): return "cannot access the catalog cache: \(message) (\(path))"
        }
    }
}
