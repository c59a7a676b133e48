/// A conflict id that matches no record, or several.
public enum ConflictError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, [String])

    public var description: String {
        switch self {
        case .notFound(let id): return "no conflict '\(id)' is recorded in this vault's history"
        case let .ambiguous(id, candidates): return "'\(id)' matches several conflicts: \(candidates.joined(separator: ", "))"
        }
    }
}
