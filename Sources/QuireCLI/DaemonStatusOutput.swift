import Foundation
import QuireCore
import QuireKit

/// How `quire status` shows the sync daemon's health (`SyncDaemonHealth`).
enum DaemonStatusOutput {
    static func json(_ health: SyncDaemonHealth?) -> JSON {
        guard let health else { return .object([("running", .bool(false))]) }
        return .object([
            ("running", .bool(health.running)), ("pid", .int(health.pid)), ("since", .string(DateText.iso(health.since))),
            ("lastCycle", .string(health.lastCycle.map(DateText.iso))), ("lastResult", .string(health.lastResult)),
            ("lastSummary", .string(health.lastSummary)),
            ("nextFetch", .string(health.running ? health.nextFetch.map(DateText.iso) : nil)),
            ("pendingChanges", .int(health.pendingChanges)), ("backoffSeconds", .int(Int(health.backoffSeconds.rounded(.up)))),
            ("lastError", .string(health.lastError)), ("lastErrorAt", .string(health.lastErrorAt.map(DateText.iso))),
            ("stoppedBecause", .string(health.stoppedBecause)),
            ("conflicts", .array(health.conflicts.map { .string($0) })),
        ])
    }

    static func print(_ health: SyncDaemonHealth?, output: Output) {
        guard let health else {
            output.line("sync daemon: not running ('quire watch start --sync' syncs by itself)")
            return
        }
        guard health.running else {
            let last = health.lastCycle.map { ", last cycle \(DateText.short($0)) — \(health.lastResult ?? "unknown")" } ?? ""
            output.line("sync daemon: not running (pid \(health.pid) ran since \(DateText.short(health.since))\(last))")
            return
        }
        output.line("sync daemon: running since \(DateText.short(health.since)) (pid \(health.pid))")
        if let last = health.lastCycle {
            let summary = health.lastSummary.map { ": \($0)" } ?? ""
            output.line("  last cycle: \(DateText.short(last)) — \(health.lastResult ?? "unknown")\(summary)")
        }
        if let reason = health.stoppedBecause {
            output.line("  stopped retrying: \(reason); fix it, then run 'quire sync' or send SIGHUP (kill -HUP \(health.pid))")
        } else if let next = health.nextFetch {
            output.line("  next fetch: \(DateText.short(next))")
        }
        if health.pendingChanges > 0 {
            output.line("  \(SyncReportOutput.plural(health.pendingChanges, "change")) waiting for the edits to settle")
        }
        if health.backoffSeconds > 0 {
            output.line("  backing off: \(Int(health.backoffSeconds.rounded(.up))) s between attempts while the remote cannot be reached")
        }
        if let error = health.lastError {
            let when = health.lastErrorAt.map { " (\(DateText.short($0)))" } ?? ""
            output.line("  last error\(when): \(error)")
        }
        for line in health.conflicts.suffix(5) { output.line("  resolved automatically: \(line)") }
    }
}
