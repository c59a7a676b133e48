import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// The candidates of shell completion (`quire __complete WORD…`, called by the scripts of
/// `quire completion`): the words after `quire` up to the one being completed (the last, maybe
/// empty). Commands and options come from the command table; note titles, tags, folders and
/// front-matter keys from the vault's catalog, so a large vault answers as fast as `quire list`.
struct Completer {
    /// What a positional argument of a command is.
    enum Kind { case note, folder, assignment, field, tagChange, query, shell, words([String]) }

    /// The positional arguments of the commands that take some; the last kind repeats when
    /// `repeats`.
    static let positionals: [String: (kinds: [Kind], repeats: Bool)] = [
        "edit": ([.note], false), "show": ([.note], false), "rm": ([.note], false), "history": ([.note], false),
        "restore": ([.note], false), "stats": ([.note], false), "rename": ([.note], false),
        "mv": ([.note, .folder], false), "set": ([.note, .assignment], true), "unset": ([.note, .field], true),
        "tag": ([.note, .tagChange], true), "list": ([.query], true), "search": ([.query], true),
        "folder add": ([.folder], false), "folder rm": ([.folder], false), "folder rename": ([.folder], false),
        "completion": ([.shell], false), "watch": ([.words(["start", "stop", "status", "run"])], false),
    ]

    /// The hidden command the completion scripts call.
    static let commandName = "__complete"

    /// The words after `quire`, dequoted; the last is the one being completed.
    let words: [String]

    init(_ words: [String]) {
        self.words = words.isEmpty ? [""] : words.map(Self.dequote)
    }

    /// The candidates starting with the current word (titles compared case-insensitively).
    func candidates(_ context: CommandContext) -> [String] {
        let current = words[words.count - 1]
        let all = unfiltered(context, current: current)
        let lowered = current.lowercased()
        var seen = Set<String>()
        return all.filter { $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }
    }

    private func unfiltered(_ context: CommandContext, current: String) -> [String] {
        var before = Array(words.dropLast())
        // `--vault PATH` may come anywhere; the scripts leave the vault to it.
        while let index = before.firstIndex(of: "--vault"), index + 1 < before.count { before.removeSubrange(index...(index + 1)) }
        let names = QuireCLI.commands.map { $0.configuration.name }
        guard let first = before.first else {
            return names.map { String($0.split(separator: " ")[0]) }
        }
        if before.count == 1 {
            let subcommands = names.filter { $0.hasPrefix(first + " ") }.map { String($0.dropFirst(first.count + 1)) }
            if !subcommands.isEmpty, !names.contains(first) { return subcommands }
            if !subcommands.isEmpty, !current.hasPrefix("-") { return subcommands + positional(first, index: 0, context: context, current: current) }
        }
        guard let found = QuireCLI.lookup(before) else { return [] }
        let configuration = found.type.configuration
        let rest = before.dropFirst(found.consumed)
        if let option = rest.last, let spec = configuration.options.first(where: { $0.names.contains(option) }), spec.valueName != nil {
            return optionValues(spec.names[0], context: context)
        }
        if current.hasPrefix("--") || (current.hasPrefix("-") && !configuration.dashPositionals) {
            return configuration.options.flatMap(\.names) + ["--help", "--vault"]
        }
        var count = 0
        var skip = false
        for word in rest {
            if skip { skip = false; continue }
            if let spec = configuration.options.first(where: { $0.names.contains(word) }) {
                skip = spec.valueName != nil
            } else {
                count += 1
            }
        }
        return positional(configuration.name, index: count, context: context, current: current)
    }

    private func positional(_ command: String, index: Int, context: CommandContext, current: String) -> [String] {
        guard let spec = Self.positionals[command], index < spec.kinds.count || spec.repeats,
              let kind = index < spec.kinds.count ? spec.kinds[index] : spec.kinds.last else { return [] }
        func catalog() -> Catalog? { Self.catalog(context) }
        switch kind {
        case .note: return catalog()?.records.map(\.title).sorted() ?? []
        case .folder: return catalog().map(Self.folders) ?? []
        case .field: return catalog()?.frontMatterKeys().filter { $0 != "id" } ?? []
        case .assignment: return catalog()?.frontMatterKeys().map { $0 + "=" } ?? []
        case .tagChange:
            let tags = catalog()?.tags().map(\.name) ?? []
            return tags.map { "+" + $0 } + tags.map { "-" + $0 }
        case .shell: return ["bash", "zsh", "fish"]
        case .words(let words): return words
        case .query:
            guard let catalog = catalog() else { return [] }
            if current.hasPrefix("#") { return catalog.tags().map { "#" + $0.name } }
            if current.hasPrefix("tag:") { return catalog.tags().map { "tag:" + $0.name } }
            if current.hasPrefix("folder:") { return Self.folders(catalog).map { "folder:" + $0 } }
            if current.hasPrefix("project:") { return catalog.projects().map { "project:" + $0.name } }
            return ["folder:", "created:", "updated:", "path:"] + catalog.frontMatterKeys().map { $0 + ":" }
        }
    }

    private func optionValues(_ option: String, context: CommandContext) -> [String] {
        func catalog() -> Catalog? { Self.catalog(context) }
        switch option {
        case "--folder": return catalog().map(Self.folders) ?? []
        case "--tag": return catalog()?.tags().map(\.name) ?? []
        case "--project": return catalog()?.projects().map(\.name) ?? []
        case "--color": return Set(catalog()?.records.compactMap(\.color) ?? []).sorted()
        case "--sort": return SortKey.allCases.map(\.rawValue)
        case "--strategy": return ["newest", "ours", "theirs", "keep-both"]
        case "--from": return FolderImport.Tool.allCases.map(\.rawValue)
        default: return []
        }
    }

    /// The vault's catalog, or nil (outside a vault, or unreadable): completion offers nothing then.
    static func catalog(_ context: CommandContext) -> Catalog? {
        do {
            return try VaultCatalog.open(context).catalog
        } catch {
            return nil
        }
    }

    /// Every folder holding a note, with the folders above it.
    static func folders(_ catalog: Catalog) -> [String] {
        var folders = Set<String>()
        catalog.forEachRecordHead { record in
            var folder = Substring(record.folder)
            while !folder.isEmpty, folders.insert(String(folder)).inserted {
                folder = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
            }
        }
        return folders.sorted()
    }

    /// A word as the user typed it, without shell quoting: `'a b`, `"a b"`, `a\ b` → `a b`.
    static func dequote(_ word: String) -> String {
        var text = Substring(word)
        if let quote = text.first, quote == "'" || quote == "\"" {
            text = text.dropFirst()
            if text.last == quote { text = text.dropLast() }
            return String(text)
        }
        var result = ""
        var escaped = false
        for character in text {
            if character == "\\" && !escaped { escaped = true; continue }
            result.append(character)
            escaped = false
        }
        return result
    }
}
