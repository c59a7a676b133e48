import CCMark
import QuireCore

/// What a stretch of a note's source (a wikilink, an embed) becomes in its HTML page.
public struct HTMLReplacement: Sendable, Equatable {
    /// The new content.
    public enum Content: Sendable, Equatable {
        /// A link: `<a class="…" href="…">text</a>`.
        case link(href: String, text: String, cssClass: String)
        /// An image: `<img src="…" alt="…">`, with `width` and `height` when given
        /// (`![[x.png|300]]`, `![[x.png|300x200]]`).
        case image(source: String, alt: String, width: Int? = nil, height: Int? = nil)
        /// Another note's HTML (or a section or block of it) transcluded by an embed:
        /// `<div class="embed" data-embed="…">html</div>`; `html` is written as it is.
        case embed(html: String, source: String)
        /// Text in a span: `<span class="…" title="…">text</span>` (an unresolved link).
        case text(String, cssClass: String, title: String)
    }

    /// Where it is: UTF-8 byte offsets in the Markdown text.
    public var range: Range<Int>
    /// What it becomes.
    public var content: Content

    /// Creates a replacement.
    public init(range: Range<Int>, content: Content) {
        self.range = range
        self.content = content
    }
}

/// What becomes of a Markdown link's or image's destination.
public enum DestinationRewrite: Sendable, Equatable {
    /// The link goes here instead.
    case url(String)
    /// The link leads nowhere: its text is shown in `<span class="broken-link" title="…">`.
    case broken(title: String)
}

/// One heading of a rendered page.
public struct RenderedHeading: Sendable, Equatable {
    /// 1–6.
    public var level: Int
    /// Its text.
    public var text: String
    /// Its `id` on the page.
    public var anchor: String
}

/// A page body rendered by `HTMLRenderer`.
public struct RenderedHTML: Sendable, Equatable {
    /// The HTML fragment.
    public var html: String
    /// The headings in order, with their anchors.
    public var headings: [RenderedHeading]
    /// The page's text without markup (for a search index).
    public var text: String
}

/// Renders Markdown to an HTML fragment with cmark-gfm's own HTML renderer (tables, task lists,
/// strikethrough, autolinks, footnotes): headings get GitHub-style `id`s, spans of the source can
/// be replaced (wikilinks, embeds), and link and image destinations can be rewritten (a relative
/// link to a note becomes a link to its page). Raw HTML in the note is left out unless
/// `rawHTML` is set (then GitHub's tag filter still disarms `<script>` and the like, and
/// `RawHTMLFilter` drops event attributes and `javascript:` URLs). `javascript:`, `vbscript:`,
/// `file:` and `data:` (but images) destinations of Markdown links and images become `""` either way.
public struct HTMLRenderer {
    /// Spans of the source to replace; overlapping ones after the first are ignored.
    public var replacements: [HTMLReplacement]
    /// Rewrites a Markdown link (`false`) or image (`true`) destination; nil keeps it.
    public var rewriteDestination: (String, Bool) -> DestinationRewrite?
    /// Whether raw HTML in the note is written to the page.
    public var rawHTML: Bool
    /// Whether headings get `id`s (not in a transcluded embed, whose page has its own).
    public var headingIDs = true

    /// Creates a renderer.
    public init(replacements: [HTMLReplacement] = [], rawHTML: Bool = false,
                rewriteDestination: @escaping (String, Bool) -> DestinationRewrite? = { _, _ in nil }) {
        self.replacements = replacements
        self.rawHTML = rawHTML
        self.rewriteDestination = rewriteDestination
    }

    /// Renders `original` (a note's body, without front matter), its `%%` comments left out.
    public func render(_ original: String) -> RenderedHTML {
        let stripped = CommentFreeSource(original)
        let markdown = stripped.markdown
        // A replacement inside a comment is dropped with it (an empty range is ignored).
        let placeholders = SourcePlaceholders(markdown, ranges: replacements.map { stripped.moved($0.range) ?? 0..<0 })
        let source = placeholders.source
        let options = CMARK_OPT_FOOTNOTES | (rawHTML ? CMARK_OPT_UNSAFE : 0)
        guard let document = MarkdownDocument(markdown: source, options: options) else {
            return RenderedHTML(html: "<p>\(HTMLText.escape(markdown))</p>\n", headings: [], text: markdown)
        }
        var textNodes: [OpaquePointer] = []
        var destinations: [OpaquePointer] = []
        var headings: [OpaquePointer] = []
        var literals: [OpaquePointer] = []
        var quotes: [OpaquePointer] = []
        // One text node per run of text, so that a callout's `[!tip]` is read whole.
        cmark_consolidate_text_nodes(document.root)
        if let iterator = cmark_iter_new(document.root) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                switch NodeKind(node) {
                case .text: if SourcePlaceholders.occur(in: Node.literal(node)) { textNodes.append(node) }
                case .link, .image: destinations.append(node)
                case .heading: headings.append(node)
                case .quote: quotes.append(node)
                case .codeSpan, .code, .html, .htmlInline: literals.append(node)
                default: break
                }
            }
        }
        var embeds: [OpaquePointer] = []
        for node in textNodes { embeds += replacePlaceholders(in: node, placeholders) }
        Self.liftEmbeds(embeds)
        BlockIDMarks.hide(in: document.root)
        for node in literals where SourcePlaceholders.occur(in: Node.literal(node)) {
            cmark_node_set_literal(node, placeholders.restored(Node.literal(node)))
        }
        // Kept raw HTML loses event attributes and URLs that run code (the tag filter does the rest).
        for node in literals where rawHTML && [.html, .htmlInline].contains(NodeKind(node)) {
            cmark_node_set_literal(node, RawHTMLFilter.filter(Node.literal(node)))
        }
        for node in destinations {
            let isImage = NodeKind(node) == .image
            // cmark drops a dangerous URL itself, unless raw HTML is on (CMARK_OPT_UNSAFE): then
            // it is dropped here, as cmark does.
            switch rewriteDestination(Node.url(node), isImage) {
            case .url(let rewritten): cmark_node_set_url(node, rawHTML && RawHTMLFilter.isDangerous(rewritten) ? "" : rewritten)
            case .broken(let title): Self.replaceByBrokenSpan(node, title: title)
            case nil: if rawHTML && RawHTMLFilter.isDangerous(Node.url(node)) { cmark_node_set_url(node, "") }
            }
        }
        CalloutBlocks.render(quotes)
        var anchors = HeadingAnchor()
        var rendered: [RenderedHeading] = []
        for node in headings {
            let level = Int(cmark_node_get_heading_level(node))
            let text = Node.plainText(node).trimmingSpaces()
            let anchor = anchors.next(text)
            rendered.append(RenderedHeading(level: level, text: text, anchor: anchor))
            if headingIDs { Self.giveID(anchor, toHeading: node, level: level) }
        }
        let html = Self.renderHTML(document, options: options)
        return RenderedHTML(html: html, headings: rendered, text: Node.plainText(document.root).trimmingSpaces())
    }

    /// Splits a text node at its placeholders into text and the replacements' nodes; the nodes
    /// of transcluded embeds made.
    private func replacePlaceholders(in node: OpaquePointer, _ placeholders: SourcePlaceholders) -> [OpaquePointer] {
        var embeds: [OpaquePointer] = []
        var insideLink = false
        var ancestor = cmark_node_parent(node)
        while let current = ancestor {
            if NodeKind(current) == .link || NodeKind(current) == .image { insideLink = true }
            ancestor = cmark_node_parent(current)
        }
        for piece in placeholders.pieces(Node.literal(node)) {
            let newNode: OpaquePointer?
            switch piece {
            case .text(let text): newNode = Self.textNode(text)
            case .placeholder(let index):
                let replacement = replacements[placeholders.used[index].index]
                newNode = insideLink ? Self.textNode(Self.label(of: replacement.content)) : Self.node(for: replacement.content)
                if !insideLink, case .embed = replacement.content, let newNode { embeds.append(newNode) }
            }
            if let newNode { cmark_node_insert_before(node, newNode) }
        }
        cmark_node_unlink(node)
        cmark_node_free(node)
        return embeds
    }

    /// A transcluded embed alone in its paragraph (but for spaces) takes the paragraph's place,
    /// so that its `<div>` stands in no `<p>`.
    private static func liftEmbeds(_ embeds: [OpaquePointer]) {
        for embed in embeds {
            guard let paragraph = cmark_node_parent(embed), NodeKind(paragraph) == .paragraph else { continue }
            var sibling = cmark_node_first_child(paragraph)
            var alone = true
            while let current = sibling {
                let kind = NodeKind(current)
                if current != embed, !(kind == .softBreak || kind == .text && Node.literal(current).trimmingSpaces().isEmpty) {
                    alone = false
                }
                sibling = cmark_node_next(current)
            }
            guard alone, let block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            cmark_node_set_on_enter(block, cmark_node_get_on_enter(embed).map { String(cString: $0) } ?? "")
            cmark_node_set_on_exit(block, cmark_node_get_on_exit(embed).map { String(cString: $0) } ?? "")
            cmark_node_insert_before(paragraph, block)
            cmark_node_unlink(paragraph)
            cmark_node_free(paragraph)
        }
    }

    private static func label(of content: HTMLReplacement.Content) -> String {
        switch content {
        case .link(_, let text, _): return text
        case .image(_, let alt, _, _): return alt
        case .embed(_, let source): return source
        case .text(let text, _, _): return text
        }
    }

    private static func textNode(_ text: String) -> OpaquePointer? {
        guard let node = cmark_node_new(CMARK_NODE_TEXT) else { return nil }
        cmark_node_set_literal(node, text)
        return node
    }

    /// A custom inline node writing the replacement's HTML (its text escaped by cmark).
    private static func node(for content: HTMLReplacement.Content) -> OpaquePointer? {
        guard let node = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { return nil }
        switch content {
        case .link(let href, let text, let cssClass):
            cmark_node_set_on_enter(node, "<a class=\"\(HTMLText.escape(cssClass))\" href=\"\(HTMLText.escape(href))\">")
            cmark_node_set_on_exit(node, "</a>")
            if let child = textNode(text) { cmark_node_append_child(node, child) }
        case .image(let source, let alt, let width, let height):
            let size = (width.map { " width=\"\($0)\"" } ?? "") + (height.map { " height=\"\($0)\"" } ?? "")
            cmark_node_set_on_enter(node, "<img src=\"\(HTMLText.escape(source))\" alt=\"\(HTMLText.escape(alt))\"\(size) />")
            cmark_node_set_on_exit(node, "")
        case .embed(let html, let source):
            cmark_node_set_on_enter(node, "<div class=\"embed\" data-embed=\"\(HTMLText.escape(source))\">" + html)
            cmark_node_set_on_exit(node, "</div>")
        case .text(let text, let cssClass, let title):
            cmark_node_set_on_enter(node, "<span class=\"\(HTMLText.escape(cssClass))\" title=\"\(HTMLText.escape(title))\">")
            cmark_node_set_on_exit(node, "</span>")
            if let child = textNode(text) { cmark_node_append_child(node, child) }
        }
        return node
    }

    /// Replaces a link or image node by a span holding its text (an image's alternative text).
    private static func replaceByBrokenSpan(_ node: OpaquePointer, title: String) {
        guard let span = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { return }
        cmark_node_set_on_enter(span, "<span class=\"broken-link\" title=\"\(HTMLText.escape(title))\">")
        cmark_node_set_on_exit(span, "</span>")
        while let child = cmark_node_first_child(node) {
            cmark_node_unlink(child)
            cmark_node_append_child(span, child)
        }
        cmark_node_insert_before(node, span)
        cmark_node_unlink(node)
        cmark_node_free(node)
    }

    /// Replaces a heading node by a custom block writing `<hN id="anchor">` around its children.
    private static func giveID(_ anchor: String, toHeading heading: OpaquePointer, level: Int) {
        guard let block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return }
        let tag = "h\(max(1, min(6, level)))"
        cmark_node_set_on_enter(block, "<\(tag) id=\"\(HTMLText.escape(anchor))\">")
        cmark_node_set_on_exit(block, "</\(tag)>")
        while let child = cmark_node_first_child(heading) {
            cmark_node_unlink(child)
            cmark_node_append_child(block, child)
        }
        cmark_node_insert_before(heading, block)
        cmark_node_unlink(heading)
        cmark_node_free(heading)
    }

    private static func renderHTML(_ document: MarkdownDocument, options: Int32) -> String {
        guard let allocator = cmark_get_default_mem_allocator(),
              let html = cmark_render_html_with_mem(document.root, options, document.extensions, allocator) else { return "" }
        defer { allocator.pointee.free(html) }
        return String(cString: html)
    }
}

extension String {
    /// The string without leading and trailing spaces and newlines.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
