import QuireCore

extension Note {
    /// A note value from catalog metadata: every field the catalog keeps, as the note's file
    /// gave it. The body is not kept in the catalog: it is empty here (read the file for it).
    /// The front matter entries are decoded from the snapshot only when `withFrontMatter` asks
    /// for them: resolving a NOTE argument among 100,000 notes needs paths, ids and titles, not
    /// every key.
    public init(record: NoteRecord, withFrontMatter: Bool = true) {
        self.init(path: record.path, folder: record.folder, id: record.id, title: record.title,
                  hasTitle: record.hasTitle, tags: record.tags, project: record.project, draft: record.draft,
                  pinned: record.pinned, color: record.color, mood: record.mood, priority: record.priority,
                  aliases: record.aliases, createdAt: record.createdAt, updatedAt: record.updatedAt,
                  words: record.words, body: "", frontMatter: withFrontMatter ? record.frontMatter : [],
                  format: record.format, problems: record.problems)
        createdAtSource = record.createdAtSource
        updatedAtSource = record.updatedAtSource
    }
}
