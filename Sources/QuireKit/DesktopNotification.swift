import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A desktop notification through `notify-send` (libnotify), else `gdbus` calling the session's
/// notification service, when a session bus is there to carry it; skipped quietly otherwise (a
/// server, a systemd unit without a desktop session).
enum DesktopNotification {
    /// Shows `title` and `body`; waits at most two seconds for `notify-send`.
    static func send(title: String, body: String, environment: [String: String]) {
        let bus = environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty }
            ?? FileManager.default.fileExists(atPath: "/run/user/\(getuid())/bus")
        guard bus else { return }
        let arguments: [String]
        if let program = ProgramSearch.find("notify-send", environment: environment) {
            arguments = [program, "--app-name=quire", title, body]
        } else if let program = ProgramSearch.find("gdbus", environment: environment) {
            arguments = [program, "call", "--session", "--dest", "org.freedesktop.Notifications",
                         "--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
                         "quire", "0", "", title, body, "[]", "{}", "-1"]
        } else {
            return
        }
        let program = arguments[0]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var child = pid_t()
        guard posix_spawn(&child, program, &actions, nil, &argv, &envp) == 0 else { return }
        var status: Int32 = 0
        for _ in 0..<40 {
            if waitpid(child, &status, WNOHANG) == child { return }
            usleep(50_000)
        }
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
    }
}
