import CSodium
import QuireCore

extension Keyring {
    /// The keyring file's bytes: compact JSON, members in a fixed order, binary values in hex.
    public func encoded() -> [UInt8] {
        json(withMAC: true).encoded(.compact)
    }

    /// Reads a keyring file. Refuses (`malformed`) what is not a keyring and (`unsupportedVersion`)
    /// a newer format; whether it is authentic is checked by `unlock`.
    public static func decode(_ bytes: [UInt8]) throws(CryptoError) -> Keyring {
        let json: JSON
        do { json = try JSON.parse(bytes) } catch { throw CryptoError.malformed(what: "keyring", reason: "\(error)") }
        guard json["format"]?.string == "quire keyring", let version = json["version"]?.int else {
            throw CryptoError.malformed(what: "keyring", reason: "not a quire keyring")
        }
        guard version <= formatVersion else { throw CryptoError.unsupportedVersion(what: "keyring", version: version) }
        func field(_ value: JSON?, _ name: String) throws(CryptoError) -> [UInt8] {
            guard let bytes = value?.string.flatMap(ContentDigest.bytes(hex:)) else {
                throw CryptoError.malformed(what: "keyring", reason: "\(name) is missing or not hex")
            }
            return bytes
        }
        func number(_ value: JSON?, _ name: String) throws(CryptoError) -> Int {
            guard let number = value?.int, number >= 0 else {
                throw CryptoError.malformed(what: "keyring", reason: "\(name) is missing or not a count")
            }
            return number
        }
        guard let passphrase = json["passphrase"], passphrase["kdf"]?.string == "argon2id13",
              let devices = json["devices"]?.array, let previous = json["previousKeys"]?.array,
              let created = json["keyCreatedAt"]?.string else {
            throw CryptoError.malformed(what: "keyring", reason: "a member is missing")
        }
        var slots: [DeviceSlot] = []
        for device in devices {
            slots.append(DeviceSlot(id: try field(device["slot"], "slot"), publicKey: try field(device["publicKey"], "publicKey"),
                                    sealedKey: try field(device["sealedKey"], "sealedKey"), sealedLabel: try field(device["label"], "label")))
        }
        var chain: [PreviousKey] = []
        for link in previous {
            chain.append(PreviousKey(generation: try number(link["generation"], "generation"),
                                     wrappedKey: try field(link["wrappedKey"], "wrappedKey")))
        }
        let slot = PassphraseSlot(salt: try field(passphrase["salt"], "salt"),
                                  cost: PassphraseCost(opsLimit: try number(passphrase["opsLimit"], "opsLimit"),
                                                       memLimit: try number(passphrase["memLimit"], "memLimit")),
                                  wrappedKey: try field(passphrase["wrappedKey"], "wrappedKey"))
        return Keyring(version: version, generation: try number(json["generation"], "generation"),
                       revision: try number(json["revision"], "revision"), keyCreatedAt: created,
                       passphraseSlot: slot, deviceSlots: slots, previousKeys: chain, mac: try field(json["mac"], "mac"))
    }

    /// The keyring as JSON, with or without its MAC (the MAC covers the rest, in this order).
    func json(withMAC: Bool) -> JSON {
        var members: [(String, JSON)] = [
            ("format", .string("quire keyring")),
            ("version", .int(version)),
            ("generation", .int(generation)),
            ("revision", .int(revision)),
            ("keyCreatedAt", .string(keyCreatedAt)),
            ("passphrase", .object([
                ("kdf", .string("argon2id13")),
                ("salt", .string(ContentDigest.hex(passphraseSlot.salt))),
                ("opsLimit", .int(passphraseSlot.cost.opsLimit)),
                ("memLimit", .int(passphraseSlot.cost.memLimit)),
                ("wrappedKey", .string(ContentDigest.hex(passphraseSlot.wrappedKey))),
            ])),
            ("devices", .array(deviceSlots.map { slot in
                .object([
                    ("slot", .string(ContentDigest.hex(slot.id))),
                    ("publicKey", .string(ContentDigest.hex(slot.publicKey))),
                    ("sealedKey", .string(ContentDigest.hex(slot.sealedKey))),
                    ("label", .string(ContentDigest.hex(slot.sealedLabel))),
                ])
            })),
            ("previousKeys", .array(previousKeys.map { link in
                .object([("generation", .int(link.generation)), ("wrappedKey", .string(ContentDigest.hex(link.wrappedKey)))])
            })),
        ]
        if withMAC { members.append(("mac", .string(ContentDigest.hex(mac)))) }
        return .object(members)
    }

    /// The MAC of everything but the MAC: keyed BLAKE2b-256 under a subkey of `key`
    /// (`crypto_kdf_derive_from_key`, id 1, context "quirekr1").
    func computeMAC(key: VaultKey) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        var subkey = [UInt8](repeating: 0, count: 32)
        defer { Sodium.wipe(&subkey) }
        let status = key.withBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return crypto_kdf_derive_from_key(&subkey, subkey.count, 1, "quirekr1", base.assumingMemoryBound(to: UInt8.self))
        }
        try Sodium.check(status, "crypto_kdf_derive_from_key")
        return try ContentDigest.keyed(json(withMAC: false).encoded(.compact), key: subkey)
    }
}
