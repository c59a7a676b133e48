import Foundation

/// Display settings of one folder in `.quire/config.yml`.
public struct FolderSettings: Equatable, Sendable {
    /// Vault-relative folder path.
    public var path: String
    /// An emoji shown before the folder name.
    public var emoji: String?
    /// Sort position (lower first; folders without one sort after, by name).
    public var order: Int?

    /// Creates folder settings.
    public init(path: String, emoji: String? = nil, order: Int? = nil) {
        self.path = path
        self.emoji = emoji
        self.order = order
    }
}

/// A merge strategy for paths matching a pattern (`merge:` in `.quire/config.yml`).
public struct MergeRule: Equatable, Sendable {
    /// The strategies quire knows.
    public static let strategies = ["newest", "ours", "theirs", "keep-both"]
    /// A path glob such as `Journal/**`.
    public var pattern: String
    /// One of `strategies`.
    public var strategy: String

    /// Creates a rule.
    public init(pattern: String, strategy: String) {
        self.pattern = pattern
        self.strategy = strategy
    }
}

/// The shared vault configuration `.quire/config.yml`: format version, folder display data,
/// defaults for new notes and per-path merge strategies. Edited with the same surgical writer
/// as notes, so comments and unknown keys survive.
///
/// ```yaml
/// version: 1
/// folders:
///   Drafts: {emoji: "📝", order: 1}
/// defaults:
///   draft: true
/// merge:
///   "Journal/**": keep-both
/// ```
public struct VaultConfig: Sendable, Equatable {
    /// Where the file lives, relative to the vault root.
    public static let relativePath = ".quire/config.yml"
    /// The format version this code writes: a vault at a lower version has migrations waiting
    /// (`quire migrate`), one at a higher version is read-only here (see Docs/format.md,
    /// "Migrations").
    public static let currentVersion = 4

    /// The underlying document (for keys this type has no accessor for).
    public private(set) var document: NoteDocument

    /// Reads a configuration; unreadable YAML throws `CoreError.invalidConfig`. `timeZone` reads
    /// dates without a zone (none of the keys quire reads is a date).
    public init(data: Data, path: String = VaultConfig.relativePath, timeZone: TimeZone = .current) throws {
        document = NoteDocument(yamlFile: data, timeZone: timeZone)
        if let problem = document.problems.first(where: { $0.kind != .badValue }) {
            throw CoreError.invalidConfig(path: path, line: problem.line, reason: problem.message)
        }
    }

    /// The configuration of a new vault, naming new notes' files in `fileNames` style.
    public static func initial(fileNames: FileNameStyle = .slug) -> VaultConfig {
        let text = """
        # quire vault configuration, shared by all devices
        version: \(currentVersion)
        # how new and renamed notes' files are named: slug (woodys-last-ride.md) or title (Woody's last ride.md)
        fileNames: \(fileNames.rawValue)
        folders: {}
        defaults: {}
        merge: {}

        """
        return VaultConfig(document: NoteDocument(yamlFile: Data(text.utf8)))
    }

    private init(document: NoteDocument) {
        self.document = document
    }

    /// The format version (1 when missing).
    public var version: Int {
        if case let .int(number)? = document.value(forKey: "version") { return number }
        return 1
    }

    /// How notes' files are named (`fileNames:`; `slug` when missing). Another value throws
    /// `CoreError.invalidConfig`: a typo must not silently rename files the other way.
    public func fileNameStyle() throws -> FileNameStyle {
        guard let value = document.value(forKey: "fileNames"), value != .null else { return .slug }
        if let text = NoteFields.text(of: value), let style = FileNameStyle(rawValue: text.lowercased()) { return style }
        let shown = NoteFields.text(of: value) ?? "a list or map"
        throw CoreError.invalidConfig(path: Self.relativePath, line: nil,
                                      reason: "fileNames is slug or title, not '\(shown)'")
    }

    /// Records `version` surgically (only the `version` line changes; a file without one gets it
    /// at its end).
    public mutating func setVersion(_ version: Int) throws {
        try document.set("version", .int(version))
    }

    /// Folder settings in written order.
    public var folders: [FolderSettings] {
        map("folders").map { entry in
            var settings = FolderSettings(path: entry.key)
            if case let .map(fields) = entry.value {
                for field in fields {
                    switch (field.key, field.value) {
                    case let ("emoji", value): settings.emoji = NoteFields.text(of: value)
                    case let ("order", .int(order)): settings.order = order
                    default: break
                    }
                }
            }
            return settings
        }
    }

    /// The settings of one folder, if configured.
    public func folder(_ path: String) -> FolderSettings? {
        folders.first { $0.path == path }
    }

    /// Default front-matter values for new notes.
    public var defaults: [FrontMatterEntry] { map("defaults") }

    /// Merge rules in written order (first match wins).
    public var mergeRules: [MergeRule] {
        map("merge").compactMap { entry in
            NoteFields.text(of: entry.value).map { MergeRule(pattern: entry.key, strategy: $0) }
        }
    }

    /// Any top-level value.
    public func value(forKey key: String) -> FrontMatterValue? { document.value(forKey: key) }

    /// Sets a top-level key surgically.
    public mutating func set(_ key: String, _ value: FrontMatterValue) throws {
        try document.set(key, value)
    }

    /// Adds or replaces one folder's settings (`nil` fields are left out).
    public mutating func setFolder(_ settings: FolderSettings) throws {
        var fields: [FrontMatterEntry] = []
        if let emoji = settings.emoji { fields.append(FrontMatterEntry(key: "emoji", value: .string(emoji))) }
        if let order = settings.order { fields.append(FrontMatterEntry(key: "order", value: .int(order))) }
        try setEntry(in: "folders", FrontMatterEntry(key: settings.path, value: .map(fields)))
    }

    /// Removes one folder's settings (nothing happens when it has none).
    public mutating func removeFolder(_ path: String) throws {
        let entries = map("folders")
        guard entries.contains(where: { $0.key == path }) else { return }
        try edit("folders", to: entries.filter { $0.key != path }) { text in
            BlockMapLines.replacing(path, of: "folders", in: text, with: nil)
        }
    }

    /// Moves one folder's settings to `newPath` in place (its line keeps its place and comments).
    public mutating func renameFolder(_ path: String, to newPath: String) throws {
        var entries = map("folders")
        guard let value = entries.first(where: { $0.key == path })?.value else { return }
        entries.removeAll { $0.key == newPath }  // settings `newPath` had give way, as before
        entries = entries.map { $0.key == path ? FrontMatterEntry(key: newPath, value: value) : $0 }
        let free = map("folders").allSatisfy { $0.key != newPath }
        try edit("folders", to: entries) { text in
            guard free else { return nil }
            return BlockMapLines.renaming(path, of: "folders", to: FrontMatterRenderer.key(newPath), in: text)
        }
    }

    /// Adds or replaces a merge rule; unknown strategies are refused.
    public mutating func setMergeRule(_ rule: MergeRule) throws {
        guard MergeRule.strategies.contains(rule.strategy) else {
            throw CoreError.invalidConfig(path: Self.relativePath, line: nil,
                                          reason: "unknown merge strategy '\(rule.strategy)'")
        }
        try setEntry(in: "merge", FrontMatterEntry(key: rule.pattern, value: .string(rule.strategy)))
    }

    /// Adds or replaces a default front-matter value for new notes.
    public mutating func setDefault(_ key: String, _ value: FrontMatterValue) throws {
        try setEntry(in: "defaults", FrontMatterEntry(key: key, value: value))
    }

    /// The file's bytes.
    public func serialized() -> Data { document.serialized() }

    private func map(_ key: String) -> [FrontMatterEntry] {
        if case let .map(entries)? = document.value(forKey: key) { return entries }
        return []
    }

    private mutating func setEntry(in key: String, _ entry: FrontMatterEntry) throws {
        var entries = map(key)
        if let index = entries.firstIndex(where: { $0.key == entry.key }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
        let lines = Self.entryLines(entry)
        try edit(key, to: entries) { text in
            lines.flatMap { BlockMapLines.replacing(entry.key, of: key, in: text, with: $0) }
        }
    }

    /// Sets top-level mapping `key` to `entries`: surgically when `surgery` gives a text whose
    /// mapping reads back as `entries` and whose other keys are as they were (the other entries'
    /// comments and quotes kept), else by writing the mapping anew.
    private mutating func edit(_ key: String, to entries: [FrontMatterEntry], surgery: (String) -> String?) throws {
        let before = document
        if let text = surgery(String(decoding: document.serialized(), as: UTF8.self)) {
            let edited = NoteDocument(yamlFile: Data(text.utf8), timeZone: document.timeZone)
            let others = before.keys.filter { $0 != key }
            if edited.problems.count <= before.problems.count, edited.value(forKey: key) == .map(entries),
               edited.keys == before.keys, others.allSatisfy({ edited.value(forKey: $0) == before.value(forKey: $0) }) {
                document = edited
                return
            }
        }
        try document.set(key, .map(entries))
    }

    /// An entry as a block mapping writes it, at indentation 0 (`Drafts:` and its deeper lines,
    /// or `"Journal/**": keep-both`): the document's own writer, so quoting follows its rules.
    static func entryLines(_ entry: FrontMatterEntry) -> [String]? {
        var scratch = NoteDocument(yamlFile: Data("x: {}\n".utf8))
        guard (try? scratch.set("x", .map([entry]))) != nil else { return nil }
        let lines = String(decoding: scratch.serialized(), as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == "x:", lines.count > 1, lines.dropFirst().allSatisfy({ $0.hasPrefix("  ") }) else { return nil }
        return lines.dropFirst().map { String($0.dropFirst(2)) }
    }
}
