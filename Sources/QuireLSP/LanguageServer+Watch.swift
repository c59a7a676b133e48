import Foundation
import QuireCore

extension LanguageServer {
    /// After `initialized`: start watching the vault.
    func started() {
        guard let session, watcher == nil else { return }
        do {
            let background = background
            watcher = try VaultWatcher(realRoot: session.vault.root.path) { [weak self] changes in
                guard let self else { return }
                background.enter()
                LanguageServerActor.perform {
                    self.filesChanged(changes)
                    background.leave()
                }
            }
        } catch {
            options.log("the vault is not watched (files changed by others are not seen): \(error)")
        }
        refreshConflicts()
    }

    /// Applies a watcher's batch to the catalog and republishes what depends on it.
    func filesChanged(_ changes: [FolderChange]) {
        guard let session, state == .running else { return }
        var notes: [String] = []
        var walk = false
        for change in changes {
            switch change {
            case .note(let path): notes.append(path)
            case .structure, .overflow: walk = true
            }
        }
        if walk {
            do { try session.refreshAll() } catch { options.log("the vault could not be walked: \(error)") }
        } else {
            session.refresh(notes: Array(Set(notes)).sorted())
        }
        diskChanged(walk ? nil : Set(notes))
        publishAllDiagnostics()
    }
}
