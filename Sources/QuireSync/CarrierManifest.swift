import Foundation

/// The plain content of an encrypted remote's manifest (sealed under the vault key on the host):
/// the vault's references, the packs that hold its objects with each pack's key, a counter that
/// every new manifest raises by one, and the content hash of the previous sealed manifest.
/// Written as JSON with sorted keys.
public struct CarrierManifest: Codable, Equatable, Sendable {
    /// One sealed pack on the host, at `packs/<name>`.
    public struct Pack: Codable, Equatable, Sendable {
        /// The content hash of the sealed bytes (lowercase hex); also its file name.
        public var name: String
        /// The key the pack is sealed under (base64 in JSON).
        public var key: Data
        /// The plain pack's size in bytes.
        public var size: Int
        /// The sealed (padded) size in bytes.
        public var sealedSize: Int
        /// The vault commit the pack was built up to: with the packs before it, it holds every
        /// object reachable from this commit.
        public var tip: String
        /// Whether the pack is a consolidation of smaller ones (never consolidated again).
        public var consolidated: Bool
    }

    /// The format version this quire writes and reads.
    public static let currentFormat = 1

    /// The format version.
    public var format: Int
    /// 1 for the first manifest, one more for each next.
    public var counter: Int
    /// The content hash of the previous sealed manifest; nil for the first.
    public var previous: String?
    /// The vault's references on the remote: `refs/heads/main` → commit id (hex).
    public var refs: [String: String]
    /// The packs, oldest first.
    public var packs: [Pack]

    /// The commit `refs/heads/main` names, as hex; nil when none.
    public var main: String? { refs["refs/heads/main"] }

    /// The manifest read from its plain JSON bytes; nil when they are not one.
    public static func decode(_ data: Data) -> CarrierManifest? {
        try? JSONDecoder().decode(CarrierManifest.self, from: data)
    }

    /// Its plain JSON bytes (sorted keys: the same manifest gives the same bytes).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
