import Foundation
import QuireCore
import QuireKit

extension LanguageServer {
    /// `quire.sync`: starts one sync cycle in the background (answered at once); its steps are
    /// reported as `$/progress` (on the client's `workDoneToken`, else on a token the server
    /// creates when the client supports it), its outcome as a message. The catalog follows the
    /// files the sync changes through the watcher.
    func startSync(workDoneToken: JSON?) throws(ResponseError) -> JSON {
        guard let session else { throw .requestFailed("no vault") }
        guard !syncRunning else { throw .requestFailed("a sync is already running") }
        syncRunning = true
        let vault = session.vault
        let environment = options.environment
        let run = { [self] (token: JSON?) in
            let progress: @Sendable (String, String, Int?) -> Void = { kind, message, percentage in
                guard let token else { return }
                var value: [(String, JSON)] = [("kind", .string(kind))]
                if kind == "begin" { value.append(("title", .string("quire sync"))) }
                value.append(("message", .string(message)))
                if let percentage { value.append(("percentage", .int(percentage))) }
                self.notify("$/progress", .object([("token", token), ("value", .object(value))]))
            }
            progress("begin", "starting", 0)
            let background = self.background
            background.enter()
            DispatchQueue.global().async {
                let outcome: Result<SyncOutcome, Error> = Result {
                    try EditorSync.run(vault, environment: environment) { step, percentage in progress("report", step, percentage) }
                }
                LanguageServerActor.perform {
                    self.syncEnded(outcome, progress: progress)
                    background.leave()
                }
            }
        }
        if let token = workDoneToken, token.string != nil || token.int != nil {
            run(token)
        } else if clientCapabilities["window"]?["workDoneProgress"] == .bool(true) {
            let token = JSON.string("quire-sync-\(nextRequestID)")
            request("window/workDoneProgress/create", .object([("token", token)])) { answer in
                run(answer["error"] == nil ? token : nil)
            }
        } else {
            run(nil)
        }
        return .object([("started", .bool(true))])
    }

    /// A sync started by `quire.sync` ended: its outcome is reported, the conflicts read again.
    private func syncEnded(_ outcome: Result<SyncOutcome, Error>, progress: @Sendable (String, String, Int?) -> Void) {
        syncRunning = false
        switch outcome {
        case .success(let done):
            progress("end", done.summary, nil)
            showMessage(done.summary)
        case .failure(let error):
            progress("end", "failed", nil)
            showMessage("sync failed: \(error)", type: 1)
        }
        refreshConflicts()
    }

    /// `quire.status`: the vault, its notes, open buffers, unresolved conflicts and where it
    /// stands with its remote; shown as a message and returned.
    func status() throws(ResponseError) -> JSON {
        guard let session else { return .null }
        let overview: SyncOverview
        do {
            overview = try EditorSync.overview(session.vault)
        } catch {
            throw .requestFailed("the sync status could not be read: \(error)")
        }
        let last = overview.lastSync.map { "last sync \(QuireClock.iso8601($0)): \(overview.lastOutcome ?? "?")" } ?? "never synced"
        let text = "\(session.vault.root.path): \(session.directory.count) notes, \(overview.uncommitted) uncommitted, "
            + "\(overview.ahead) to push, \(overview.behind) to merge, \(overview.conflicts) unresolved conflict"
            + "\(overview.conflicts == 1 ? "" : "s"); \(last)"
        showMessage(text)
        return ServerStatus(vault: session.vault.root.path, notes: session.directory.count, openDocuments: documents.count,
                            overview: overview, syncRunning: syncRunning).json
    }
}
