import Foundation
import QuireCore
import QuireKit

extension LanguageServer {
    /// The file of a note as it is on disk now; nil when there is none (or it cannot be read).
    func diskText(_ path: String) -> Data? {
        guard let session else { return nil }
        var status = stat()
        guard lstat(session.vault.url(for: path).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return try? session.vault.readData(path)
    }

    /// Files changed on disk (`paths`; nil: any may have): every open buffer of one of them takes
    /// the change in. A buffer whose file is gone looks again at every change: the note it moved
    /// to can come in a later batch of the watcher than the removal of its file.
    func diskChanged(_ paths: Set<String>?) {
        for (uri, open) in documents.sorted(by: { $0.key < $1.key }) {
            guard let path = open.path else { continue }
            let gone = open.base != nil && open.movedTo == nil && diskText(path) == nil
            guard paths?.contains(path) ?? true || gone else { continue }
            takeIn(uri)
        }
    }

    /// Brings the change of the open buffer's file on disk into the buffer: the editor's own save
    /// becomes the buffer's base; another change (a sync, another program) is merged three ways
    /// with the buffer's unsaved edits (`BufferMerge`) and sent as a versioned
    /// `workspace/applyEdit`. A client that cannot apply edits gets the merge at save
    /// (`willSaveWaitUntil`); one that refused the edit (the buffer changed meanwhile) gets it
    /// computed again against its new text, a few times.
    func takeIn(_ uri: String, attempt: Int = 0) {
        guard let open = documents[uri], let path = open.path, let session, !open.applying else { return }
        guard let onDisk = diskText(path) else {
            followMove(uri)
            return
        }
        guard onDisk != open.base else { return }
        let buffer = open.document.data
        if onDisk == buffer || onDisk == open.saving {
            documents[uri]?.base = onDisk
            documents[uri]?.saving = nil
            return
        }
        guard clientCapabilities["workspace"]?["applyEdit"] == .bool(true) else { return }
        let merge: BufferMerge
        do {
            merge = try BufferMerge.merge(vault: session.vault, path: path, base: open.base, buffer: buffer, onDisk: onDisk,
                                          now: try now(), environment: options.environment)
        } catch {
            options.log("\(path) changed on disk and could not be merged into the open buffer: \(error)")
            return
        }
        guard merge.merged != buffer else {
            documents[uri]?.base = onDisk
            recordCollisions(merge)
            return
        }
        sendMerged(merge, to: open, label: "quire: the change of \(path) on disk merged into the unsaved edits") { [self] applied in
            if applied {
                documents[uri]?.base = onDisk
            } else if attempt < 3 {
                // Looked at again once the buffer's change (sent after the answer by a client
                // that holds its changes back a moment) has come in.
                LanguageServerActor.perform { [self] in
                    try? await Task.sleep(for: .milliseconds(500))  // only a cancellation ends it early
                    takeIn(uri, attempt: attempt + 1)
                }
            } else {
                options.log("\(path): the editor refused the merged text; it is merged again at save")
            }
        }
    }

    /// Sends `merge`'s text to the open buffer as a versioned `workspace/applyEdit` (then the
    /// file renames of `moving`) and hands `then` whether it was applied: the client said so and
    /// its buffer shows it — it holds the merged text, or it was closed by the rename — for a
    /// client that skips an edit for a buffer newer than it says "applied" all the same (Neovim
    /// 0.7). Applied, the merge's collisions are recorded. No other merge is sent to the buffer
    /// until the answer is in.
    func sendMerged(_ merge: BufferMerge, to open: OpenDocument, label: String, moving: (from: String, to: String)? = nil,
                    then: @escaping (Bool) -> Void) {
        var edit = WorkspaceEditBuilder()
        edit.edit(open.uri, version: open.document.version, open.document.minimalEdits(to: [UInt8](merge.merged)))
        if let moving { edit.rename(moving.from, moving.to, overwrite: true) }
        documents[open.uri]?.applying = true
        request("workspace/applyEdit", .object([("label", .string(label)), ("edit", edit.json)])) { [self] answer in
            documents[open.uri]?.applying = false
            let buffer = documents[open.uri]?.document.data
            let applied = answer["result"]?["applied"] == .bool(true) && (buffer == merge.merged || (moving != nil && buffer == nil))
            if applied { recordCollisions(merge) }
            then(applied)
        }
    }

    /// Merges the change of the file on disk into a buffer about to be saved, when the buffer has
    /// not taken it in yet (a client without `workspace/applyEdit`, or one still answering): the
    /// text to stamp and save instead of the buffer.
    func mergedForSave(_ open: OpenDocument, path: String, onDisk: Data?) throws(ResponseError) -> Data {
        let buffer = open.document.data
        guard let session, let onDisk, onDisk != open.base, onDisk != buffer, onDisk != open.saving else { return buffer }
        do {
            let merge = try BufferMerge.merge(vault: session.vault, path: path, base: open.base, buffer: buffer, onDisk: onDisk,
                                              now: try now(), environment: options.environment)
            recordCollisions(merge)
            return merge.merged
        } catch let error as ResponseError {
            throw error
        } catch {
            throw .requestFailed("\(path) changed on disk and could not be merged with the buffer: \(error)")
        }
    }

    /// Records where the buffer's words won over the file's for the next sync (listed by `quire
    /// conflicts`) and says so; while a sync holds the vault lock, tries again every second.
    func recordCollisions(_ merge: BufferMerge, attempt: Int = 0) {
        guard let session, !merge.collisions.isEmpty else { return }
        do {
            if try merge.record(in: session.vault) {
                showMessage("\(merge.path): your unsaved edit kept over the change on disk where both changed the same words "
                            + "(recorded for 'quire conflicts'): " + merge.collisions.joined(separator: "; "), type: 2)
                return
            }
        } catch {
            options.log("\(merge.path): the merge's collisions could not be recorded: \(error)")
            return
        }
        guard attempt < 600 else {
            options.log("\(merge.path): the vault stayed locked; the merge's collisions are not recorded")
            return
        }
        LanguageServerActor.perform { [self] in
            try? await Task.sleep(for: .seconds(1))  // only a cancellation ends it early
            recordCollisions(merge, attempt: attempt + 1)
        }
    }
}
