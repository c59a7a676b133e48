import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The long-running process behind `quire watch`: watches the vault's folders (`FolderWatch`)
/// and answers, on the vault's local socket, "which notes changed since this token?". Before it
/// answers it reads every event the kernel has queued, so a change finished before the
/// question is always in the answer. Owns its socket (closed in `deinit`).
public final class WatchServer {
    /// The vault root with symlinks resolved.
    public let realRoot: String
    /// When the watch started.
    public let startedAt: Date
    private let watch: FolderWatch
    private var journal: WatchJournal
    private let listener: Int32

    /// Claims the vault's socket (only one watcher per vault), then watches every folder and
    /// starts listening. Nothing is answered before the folders are watched.
    public init(realRoot: String) throws(WatchError) {
        self.realRoot = realRoot
        startedAt = Date()
        let socket = try WatchSocket.make()
        listener = socket
        var (address, length) = WatchSocket.address(realRoot)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(socket)
            if code == EADDRINUSE { throw .alreadyRunning }
            throw .socket(function: "bind", message: String(cString: strerror(code)))
        }
        do throws(FolderWatchError) {
            watch = try FolderWatch(realRoot: realRoot)
        } catch {
            close(socket)
            throw .watch(error)
        }
        journal = WatchJournal(instance: UInt64.random(in: 1...UInt64.max))
        journal.blocker = watch.blocker
        guard listen(socket, 64) == 0 else {
            let message = String(cString: strerror(errno))
            throw .socket(function: "listen", message: message)
        }
    }

    deinit { close(listener) }

    /// The number of folders watched.
    public var folderCount: Int { watch.folderCount }

    /// Why `run` returned.
    public enum Ending: Equatable, Sendable {
        /// A client asked it to stop.
        case asked
        /// Nobody asked it anything for `WatchIdleLimit.seconds`.
        case idle
    }

    /// Serves until a client asks it to stop, or (with `idle`) until nobody asked it anything
    /// for that long; throws when the vault root goes away. Events of the watched folders are
    /// not questions: they never keep it running.
    @discardableResult
    public func run(idle: WatchIdleLimit? = nil) throws(WatchError) -> Ending {
        var descriptors = [pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        var lastAsked = idle?.clock() ?? 0
        while true {
            var timeout: Int32 = -1
            if let idle {
                let left = lastAsked + idle.seconds - idle.clock()
                if left <= 0 {
                    guard idle.stayAwake() else { return .idle }
                    lastAsked = idle.clock()
                    continue
                }
                timeout = Int32(min(Double(Int32.max), (left * 1000).rounded(.up)))
            }
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .socket(function: "poll", message: String(cString: strerror(errno)))
            }
            if descriptors[0].revents != 0 { try drain() }
            if descriptors[1].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    // The question's time is when it came, read before the answer goes out.
                    if let idle { lastAsked = idle.clock() }
                    let stop = try serve(client)
                    close(client)
                    if stop { return .asked }
                }
            }
        }
    }

    private func drain() throws(WatchError) {
        do throws(FolderWatchError) {
            journal.record(try watch.drain())
            journal.blocker = watch.blocker
        } catch {
            throw .watch(error)
        }
    }

    /// Answers one client; true when it asked the watcher to stop.
    private func serve(_ client: Int32) throws(WatchError) -> Bool {
        WatchSocket.setDeadlines(client)
        guard WatchSocket.peerIsSameUser(client), let request = WatchSocket.receive(client) else { return false }
        let fields = WatchSocket.fields(request)
        guard fields.count >= 2 else { return false }
        guard fields[1] == realRoot else {
            _ = WatchSocket.send(client, WatchSocket.message(["other"]))
            return false
        }
        try drain()
        switch fields[0] {
        case "since" where fields.count == 4:
            let token = UInt64(fields[2]).flatMap { instance in
                UInt64(fields[3]).map { WatchToken(instance: instance, sequence: $0) }
            }
            let reply: [String]
            switch journal.answer(since: token) {
            case .notes(let paths, let now):
                reply = ["notes", String(now.instance), String(now.sequence)] + paths
            case .full(let reason, let now):
                reply = ["full", String(now.instance), String(now.sequence), reason]
            }
            _ = WatchSocket.send(client, WatchSocket.message(reply))
        case "status":
            let status = WatchStatus(processID: Int(getpid()), folders: watch.folderCount,
                                     startedAt: startedAt, changesCounted: Int(journal.sequence - 1),
                                     notesRemembered: journal.noteCount, blocker: watch.blocker)
            _ = WatchSocket.send(client, WatchSocket.message(status.fields))
        case "attachments":
            // Nothing when the watch cannot vouch for them (the caller walks).
            let reply = watch.attachmentPaths().map { ["attachments"] + $0 } ?? ["unknown"]
            _ = WatchSocket.send(client, WatchSocket.message(reply))
        case "stop":
            _ = WatchSocket.send(client, WatchSocket.message(["stopping"]))
            return true
        default:
            break
        }
        return false
    }
}

/// What a running watcher says about itself (`quire watch status`).
public struct WatchStatus: Equatable, Sendable {
    /// The watcher's process id.
    public var processID: Int
    /// Folders watched.
    public var folders: Int
    /// When it started.
    public var startedAt: Date
    /// Batches of changes it has counted.
    public var changesCounted: Int
    /// Notes it remembers as changed.
    public var notesRemembered: Int
    /// Why it cannot vouch for the vault right now (every command then walks the vault), if so.
    public var blocker: String?

    var fields: [String] {
        ["status", String(processID), String(folders), String(Int64(startedAt.timeIntervalSince1970)),
         String(changesCounted), String(notesRemembered), blocker ?? ""]
    }

    init(processID: Int, folders: Int, startedAt: Date, changesCounted: Int, notesRemembered: Int, blocker: String?) {
        self.processID = processID
        self.folders = folders
        self.startedAt = startedAt
        self.changesCounted = changesCounted
        self.notesRemembered = notesRemembered
        self.blocker = blocker
    }

    init?(fields: [String]) {
        guard fields.count == 7, fields[0] == "status", let pid = Int(fields[1]), let folders = Int(fields[2]),
              let started = Int64(fields[3]), let changes = Int(fields[4]), let notes = Int(fields[5]) else { return nil }
        self.init(processID: pid, folders: folders, startedAt: Date(timeIntervalSince1970: TimeInterval(started)),
                  changesCounted: changes, notesRemembered: notes, blocker: fields[6].isEmpty ? nil : fields[6])
    }
}

/// Asks a vault's watcher (the client side of `WatchServer`). Every question returns nil when
/// no watcher runs for the vault, it does not answer in time, or it is not this user's.
public enum WatchClient {
    /// Which notes changed since `token` (nil: the caller has none).
    public static func changes(realRoot: String, since token: WatchToken?) -> WatchAnswer? {
        let fields = ask(realRoot, ["since", realRoot, String(token?.instance ?? 0), String(token?.sequence ?? 0)])
        guard let fields, fields.count >= 3, let instance = UInt64(fields[1]), let sequence = UInt64(fields[2]) else {
            return nil
        }
        let now = WatchToken(instance: instance, sequence: sequence)
        switch fields[0] {
        case "notes": return .notes(Array(fields.dropFirst(3)), now)
        case "full" where fields.count == 4: return .full(reason: fields[3], now)
        default: return nil
        }
    }

    /// The vault's attachments as the watcher knows them (`FolderWatch.attachmentPaths()`: the
    /// walk's list before the ignore rules, in `PathOrder`); nil when it cannot vouch for them
    /// or is a watcher that does not keep them.
    public static func attachments(realRoot: String) -> [String]? {
        guard let fields = ask(realRoot, ["attachments", realRoot]), fields.first == "attachments" else { return nil }
        return Array(fields.dropFirst())
    }

    /// The watcher's status.
    public static func status(realRoot: String) -> WatchStatus? {
        ask(realRoot, ["status", realRoot]).flatMap(WatchStatus.init(fields:))
    }

    /// Asks the watcher to stop; true when it said it would.
    public static func stop(realRoot: String) -> Bool {
        ask(realRoot, ["stop", realRoot]) == ["stopping"]
    }

    private static func ask(_ realRoot: String, _ request: [String]) -> [String]? {
        guard let descriptor = try? WatchSocket.make() else { return nil }
        defer { close(descriptor) }
        var (address, length) = WatchSocket.address(realRoot)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0, WatchSocket.peerIsSameUser(descriptor) else { return nil }
        WatchSocket.setDeadlines(descriptor)
        guard WatchSocket.send(descriptor, WatchSocket.message(request)) else { return nil }
        shutdown(descriptor, Int32(SHUT_WR))
        return WatchSocket.receive(descriptor).map(WatchSocket.fields)
    }
}
