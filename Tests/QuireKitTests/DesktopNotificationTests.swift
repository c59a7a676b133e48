import Foundation
import QuireTestSupport
import Testing
@testable import QuireKit

/// The daemon's desktop notification (issue 31 item 7): through `notify-send`, else `gdbus`, and
/// only where a session bus is there to carry it. Fake programs on `PATH` record their arguments.
@Suite struct DesktopNotificationTests {
    private func programs(_ names: [String]) throws -> (folder: URL, log: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("log")
        for name in names {
            let script = folder.appendingPathComponent(name)
            try ExecutableScript.write("#!/bin/sh\nprintf '%s|' \"${0##*/}\" \"$@\" >> '\(log.path)'\n", to: script)
        }
        return (folder, log)
    }

    @Test func notifySendFirstThenGdbusAndNothingWithoutABus() throws {
        let both = try programs(["notify-send", "gdbus"])
        defer { try? FileManager.default.removeItem(at: both.folder) }
        DesktopNotification.send(title: "Quire: your text lost in 1 note", body: "a.md — see 'quire conflicts'",
                                 environment: ["PATH": both.folder.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nowhere"])
        #expect(try String(contentsOf: both.log, encoding: .utf8)
            == "notify-send|--app-name=quire|Quire: your text lost in 1 note|a.md — see 'quire conflicts'|")

        let gdbus = try programs(["gdbus"])
        defer { try? FileManager.default.removeItem(at: gdbus.folder) }
        DesktopNotification.send(title: "T", body: "B", environment: ["PATH": gdbus.folder.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nowhere"])
        let call = try String(contentsOf: gdbus.log, encoding: .utf8)
        #expect(call.hasPrefix("gdbus|call|--session|--dest|org.freedesktop.Notifications|"), "\(call)")
        #expect(call.contains("|quire|0||T|B|"), "\(call)")

        let quiet = try programs(["notify-send"])
        defer { try? FileManager.default.removeItem(at: quiet.folder) }
        DesktopNotification.send(title: "T", body: "B", environment: ["PATH": quiet.folder.path, "DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(!FileManager.default.fileExists(atPath: quiet.log.path))
    }
}
