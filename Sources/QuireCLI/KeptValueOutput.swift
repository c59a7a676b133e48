import Foundation
import QuireCore
import QuireKit

/// The values `quire migrate` and `quire import --from` left where they were (`KeptValue`),
/// as notes on standard error or JSON objects.
enum KeptValueOutput {
    /// One `quire: note: kept KEY in PATH: WHY — not moved to tags` line each (`not rewritten`
    /// when the key is `tags` itself).
    static func print(_ kept: [KeptValue], vault: Vault, context: CommandContext) {
        for value in kept {
            let outcome = value.key == "tags" ? "not rewritten" : "not moved to tags"
            context.output.error("quire: note: kept \(value.key) in \(context.displayPath(value.path, vault: vault)): "
                                 + "\(value.reason) — \(outcome)")
        }
    }

    /// `[{"path", "key", "reason"}]`.
    static func json(_ kept: [KeptValue]) -> JSON {
        .array(kept.map { JSON.object([("path", .string($0.path)), ("key", .string($0.key)), ("reason", .string($0.reason))]) })
    }
}
