import Foundation

/// Note ids: quire writes lowercase UUIDs; ids written by other tools (Dendron's, numbers)
/// are kept as they are and matched case-insensitively.
public enum NoteID {
    /// A new id: a random UUID in lowercase (`2f1e7a1c-...`).
    public static func generate() -> String {
        UUID().uuidString.lowercased()
    }

    /// Whether `text` is a UUID in the canonical 8-4-4-4-12 form (either case).
    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
                guard isHex else { return false }
            }
        }
        return true
    }
}
