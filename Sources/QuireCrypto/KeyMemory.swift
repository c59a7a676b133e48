import QuireCore

/// What a device remembers of an encrypted remote (a file of its own, mode 0600, never synced):
/// the last vault key and its generation, the newest keyring revision seen, and the newest
/// manifest seen (its counter and hash), so that a host offering anything older is refused
/// (`Keyring.unlock`, and the transport for manifests).
public struct KeyMemory: Sendable, Equatable {
    /// The format version of the file.
    public static let formatVersion = 1

    /// The generation of `key`.
    public var generation: Int
    /// The newest keyring revision seen.
    public var keyringRevision: Int
    /// The newest manifest counter seen (0: none yet).
    public var manifestCounter: Int
    /// The hex digest of the newest manifest seen (empty: none yet).
    public var manifestHash: String
    /// The vault key of `generation`.
    private var key: VaultKey

    /// A memory of `key` at `keyring`'s generation and revision, with the manifest seen.
    public init(keyring: Keyring, key: VaultKey, manifestCounter: Int = 0, manifestHash: String = "") {
        self.generation = keyring.generation
        self.keyringRevision = keyring.revision
        self.manifestCounter = manifestCounter
        self.manifestHash = manifestHash
        self.key = key
    }

    /// The vault key remembered.
    public func vaultKey() throws(CryptoError) -> VaultKey { key }

    /// This memory after accepting `keyring` (unlocked to `key`): the manifest fields kept.
    public func remembering(keyring: Keyring, key: VaultKey) -> KeyMemory {
        KeyMemory(keyring: keyring, key: key, manifestCounter: manifestCounter, manifestHash: manifestHash)
    }

    /// The memory stored at `path`, or nil when there is none.
    public static func load(at path: String) throws(CryptoError) -> KeyMemory? {
        guard let json = try PrivateFile.readJSON(path, formatVersion: formatVersion) else { return nil }
        guard let generation = json["generation"]?.int, let revision = json["keyringRevision"]?.int,
              let counter = json["manifestCounter"]?.int, let hash = json["manifestHash"]?.string,
              var keyBytes = json["key"]?.string.flatMap(ContentDigest.bytes(hex:)) else {
            throw CryptoError.malformed(what: path, reason: "a member is missing")
        }
        defer { Sodium.wipe(&keyBytes) }
        var memory = KeyMemory(generation: generation, keyringRevision: revision, key: try VaultKey(bytes: keyBytes))
        memory.manifestCounter = counter
        memory.manifestHash = hash
        return memory
    }

    /// Writes the memory to `path` (mode 0600).
    public func save(to path: String) throws(CryptoError) {
        var keyBytes = key.copyBytes()
        defer { Sodium.wipe(&keyBytes) }
        let json = JSON.object([
            ("version", .int(Self.formatVersion)),
            ("generation", .int(generation)),
            ("keyringRevision", .int(keyringRevision)),
            ("manifestCounter", .int(manifestCounter)),
            ("manifestHash", .string(manifestHash)),
            ("key", .string(ContentDigest.hex(keyBytes))),
        ])
        try PrivateFile.write(json, to: path)
    }

    private init(generation: Int, keyringRevision: Int, key: VaultKey) {
        self.generation = generation
        self.keyringRevision = keyringRevision
        self.manifestCounter = 0
        self.manifestHash = ""
        self.key = key
    }
}
