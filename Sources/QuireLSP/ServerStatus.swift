import Foundation
import QuireCore
import QuireKit

/// The answer to `quire.status`: the vault, its notes, open buffers, and where it stands with
/// its remote (unset values are left out).
struct ServerStatus: Sendable {
    var vault: String
    var notes: Int
    var openDocuments: Int
    var overview: SyncOverview
    var syncRunning: Bool

    var json: JSON {
        .object([
            "vault": .string(vault), "notes": .int(notes),
            "openDocuments": .int(openDocuments), "remote": overview.remote.map { .string($0) },
            "uncommitted": .int(overview.uncommitted), "ahead": .int(overview.ahead), "behind": .int(overview.behind),
            "conflicts": .int(overview.conflicts), "lastSync": overview.lastSync.map { .string(QuireClock.iso8601($0)) },
            "lastOutcome": overview.lastOutcome.map { .string($0) }, "lastError": overview.lastError.map { .string($0) },
            "syncRunning": .bool(syncRunning),
        ])
    }
}

extension SyncConflict {
    /// The conflict as `quire.conflicts` answers it.
    var json: JSON {
        .object([("id", .string(id)), ("path", .string(path)), ("time", .string(QuireClock.iso8601(time))),
                 ("device", .string(device)), ("winner", .string(winner)), ("reason", .string(reason))])
    }
}
