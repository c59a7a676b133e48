import Foundation
import QuireCore
import QuireKit

extension LanguageServer {
    /// The open buffer's file is gone from disk and another note on disk has the buffer's id (a
    /// sync brought another device's rename of the note): the buffer follows the note. A client
    /// that applies file renames gets one `workspace/applyEdit`: the buffer's text merged with the
    /// note at its new path (`BufferMerge`), then the rename onto that path; any other client is
    /// told where the note went. Either way a save of the old path is never stamped as a new note.
    func followMove(_ uri: String) {
        guard let open = documents[uri], let path = open.path, let session, !open.applying, open.movedTo == nil,
              let base = open.base, let target = otherPath(ofNote: base, at: path),
              !documents.values.contains(where: { $0.path.map { ExactPath.same($0, target) } ?? false }),
              let onDisk = diskText(target) else { return }
        documents[uri]?.movedTo = target
        let told = "\(path) was renamed to \(target) by a sync: open \(target) and bring your unsaved edits there "
            + "(saving \(path) would make a second copy of the note)"
        guard clientCapabilities["workspace"]?["applyEdit"] == .bool(true), clientSupports("rename") else {
            showMessage(told, type: 2)
            return
        }
        let merge: BufferMerge
        do {
            merge = try BufferMerge.merge(vault: session.vault, path: target, base: base, buffer: open.document.data, onDisk: onDisk,
                                          now: try now(), environment: options.environment)
        } catch {
            options.log("\(path) moved to \(target); the buffer could not be merged with it: \(error)")
            showMessage(told, type: 2)
            return
        }
        sendMerged(merge, to: open, label: "quire: \(path) was renamed to \(target) by a sync",
                   moving: (uri, session.uri(ofPath: target))) { [self] applied in
            if !applied { showMessage(told, type: 2) }
        }
    }

    /// The path of the one other note on disk with the id `data` has (read at `path`); nil when
    /// it has no id, or no other note or several have it.
    func otherPath(ofNote data: Data, at path: String) -> String? {
        guard let session, let id = NoteParser.parse(data, path: path).id?.lowercased() else { return nil }
        let others = session.directory.all().filter { entry in
            entry.id?.lowercased() == id && !ExactPath.same(entry.path, path) && diskText(entry.path) != nil
        }
        return others.count == 1 ? others.first?.path : nil
    }
}
