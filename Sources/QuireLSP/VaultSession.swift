import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Synchronization

/// The vault a server works on: its catalog (opened fresh, then kept up to date as files
/// change under it) and the directory of notes answers come from. Held by the server's actor
/// only.
final class VaultSession {
    let vault: Vault
    let environment: [String: String]
    private var opened: QuireKit.VaultSession
    var directory: NoteDirectory
    /// The vault's other files (what links to attachments resolve against).
    private(set) var attachments: [String]

    /// Opens the catalog of `vault` the way every command does (QuireKit's `VaultSession`, with
    /// the vault's git ignore rules): the snapshot in `.quire/cache/` is loaded and only changed
    /// notes read.
    init(vault: Vault, environment: [String: String]) throws {
        self.vault = vault
        self.environment = environment
        opened = try QuireKit.VaultSession(vault: vault, environment: environment)
        directory = NoteDirectory(catalog: opened.catalog)
        attachments = try opened.attachmentPaths()
        // The walk's comparison and the directory read every note's path and record.
        opened.catalog.releaseReadPages()
    }

    /// A resolver over the catalog and the attachments, with the open notes' names in place of
    /// their files'.
    func resolver(open entries: [NoteEntry]) -> LinkResolver {
        LinkResolver(index: OpenNoteTargets(catalog: opened.catalog, attachments: attachments, entries: entries))
    }

    var catalog: Catalog { opened.catalog }

    /// Looks at the notes a watcher named (created, written, deleted, renamed), updates the
    /// catalog incrementally and the directory's view of those notes.
    func refresh(notes paths: [String]) {
        let (shown, hidden) = opened.refresh(notes: paths)
        for path in shown {
            directory.setOnDisk(path, opened.catalog.record(path: path).map(NoteEntry.init(record:)))
        }
        // A path the rules hide now (e.g. a note just ignored) leaves the catalog.
        for path in hidden { directory.setOnDisk(path, nil) }
    }

    /// Walks the whole vault again (folders appeared or moved, ignore rules changed, events were
    /// dropped) and brings the catalog and directory up to date.
    func refreshAll() throws {
        try opened.refreshAll()
        directory.resetOnDisk(catalog: opened.catalog)
        attachments = try opened.attachmentPaths()
        opened.catalog.releaseReadPages()
    }

    /// The vault-relative path of a `file://` URI inside the vault, else nil.
    func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return try? vault.relativePath(of: url)
    }

    /// The `file://` URI of a vault-relative path.
    func uri(ofPath path: String) -> String {
        vault.url(for: path).absoluteString
    }
}

/// Watches the vault's folders (QuireCore `FolderWatch`, inotify) on a thread of its own and
/// hands batches of changes to `deliver`, at most every `settle` seconds (an editor's save or a
/// sync writes many events at once). Stops when `stop()` is called or the vault goes away.
final class VaultWatcher: Sendable {
    private let stopped = Mutex(false)
    /// Why the watch could not start (set by the thread before `init` returns).
    private let startFailure = Mutex<FolderWatchError?>(nil)
    /// Signalled when the thread has ended.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `realRoot` (symlinks resolved): every folder is watched before this
    /// returns (a file written afterwards is never missed); `deliver` runs on the watcher's thread,
    /// which alone holds the `FolderWatch`.
    init(realRoot: String, settle: TimeInterval = 0.05, deliver: @escaping @Sendable ([FolderChange]) -> Void) throws {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { finished.signal() }
            let watch: FolderWatch
            do throws(FolderWatchError) {
                watch = try FolderWatch(realRoot: realRoot)
            } catch {
                startFailure.withLock { $0 = error }
                started.signal()
                return
            }
            started.signal()
            if let blocker = watch.blocker { deliver([.structure(blocker)]) }
            while !isStopped {
                var descriptor = pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 200)
                guard ready > 0 else { continue }
                Thread.sleep(forTimeInterval: settle)
                do throws(FolderWatchError) {
                    let changes = try watch.drain()
                    if !changes.isEmpty { deliver(changes) }
                } catch {
                    // The root went away or inotify failed: a walk of what is left settles the catalog.
                    deliver([.structure("the watch stopped: \(error)")])
                    return
                }
            }
        }
        thread.name = "quire-lsp-watch"
        thread.start()
        started.wait()
        if let failure = startFailure.withLock({ $0 }) { throw failure }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    /// Stops the thread and waits for it to end (it notices within 0.2 s; a batch it is handing
    /// over finishes first): a process that exits meanwhile would tear down what the thread
    /// still uses.
    func stop() {
        let already = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !already else { return }
        // It notices within 0.2 s; the bound only guards against a bug hanging the exit.
        _ = finished.wait(timeout: .now() + 60)
    }
}
