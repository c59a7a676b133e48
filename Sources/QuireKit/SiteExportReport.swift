import Foundation

/// What `SiteExport.run` is asked to do.
public struct SiteExportOptions: Sendable {
    /// The folder to write the site to: created, or, when it holds a site quire wrote before,
    /// given the new site in place of the files the previous export wrote (every other file is
    /// kept); any other non-empty folder is refused.
    public var destination: URL
    /// The site's name (default: the vault folder's name).
    public var title: String?
    /// Whether notes marked `draft: true` get pages (links to a left-out note show as text).
    public var includeDrafts: Bool
    /// Whether raw HTML written in notes goes to the pages (GitHub's tag filter still applies).
    public var rawHTML: Bool

    /// Creates options.
    public init(destination: URL, title: String? = nil, includeDrafts: Bool = true, rawHTML: Bool = false) {
        self.destination = destination
        self.title = title
        self.includeDrafts = includeDrafts
        self.rawHTML = rawHTML
    }
}

/// A link in a note that leads to no page of the site.
public struct SiteBrokenLink: Sendable, Equatable {
    /// The vault path of the note it is written in.
    public var source: String
    /// Its 1-based line in that file.
    public var line: Int
    /// The link as written (`[[target|label]]`, `[label](path)`).
    public var text: String
    /// Why: `unresolved`, `ambiguous` (with the candidates) or `not published` (a left-out draft).
    public var reason: String
}

/// What an export did.
public struct SiteExportReport: Sendable, Equatable {
    /// The folder the site is in.
    public var destination: URL
    /// Note pages written.
    public var pages: Int
    /// Attachments copied (those notes link to or embed).
    public var attachments: Int
    /// Drafts left out (with `includeDrafts` off).
    public var draftsLeftOut: Int
    /// Links that lead nowhere, in note path and line order.
    public var brokenLinks: [SiteBrokenLink]
    /// Files in the destination that no export wrote (a `CNAME`, notes kept there), kept as they were.
    public var keptFiles: Int = 0
}

/// Why an export could not be written.
public enum SiteExportError: Error, Equatable, CustomStringConvertible {
    /// The destination exists and is not a folder.
    case destinationNotAFolder(String)
    /// The destination is a non-empty folder that holds no site quire wrote.
    case destinationNotEmpty(String)
    /// The destination is the vault, or holds it.
    case destinationHoldsVault(String)
    /// A file of the site could not be written.
    case writeFailed(path: String, reason: String)
    /// An attachment could not be read.
    case readFailed(path: String, reason: String)
    /// A file or folder in the destination that no export wrote is where the new site puts a
    /// folder or a file (its site path).
    case inTheWay(String)

    /// A readable, lowercase message.
    public var description: String {
        switch self {
        case .destinationNotAFolder(let path): return "the destination is not a folder (\(path))"
        case .destinationNotEmpty(let path): return "the destination folder is not empty and holds no site quire wrote (\(path))"
        case .destinationHoldsVault(let path): return "the destination would replace the vault (\(path))"
        case .writeFailed(let path, let reason): return "cannot write \(path) (\(reason))"
        case .readFailed(let path, let reason): return "cannot read \(path) (\(reason))"
        case .inTheWay(let path): return "\(path) in the destination was not written by quire and is in the way of the site; move it"
        }
    }
}
