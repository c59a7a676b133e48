/// An earlier generation's key sealed under the next generation's key.
struct PreviousKey: Sendable, Equatable {
    /// The generation of the sealed key.
    var generation: Int
    /// That key, sealed (`ManifestSeal`) under the key of `generation + 1`.
    var wrappedKey: [UInt8]

    /// What a previous key is bound to.
    static func context(_ generation: Int) -> String { "quire keyring v1 previous key generation \(generation)" }
}
